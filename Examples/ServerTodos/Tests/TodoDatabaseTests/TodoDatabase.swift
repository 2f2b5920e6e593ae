import Fluent
import FluentPostgresDriver
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Testing

/// Where the examples' PostgreSQL listens: SERVER_TODOS_POSTGRES (`127.0.0.1:PORT`), which
/// `.ci/run` sets after `scripts/postgres-cluster.sh start`. Without it the PostgreSQL examples
/// are skipped, unless CI is set, where they fail.
enum ExamplePostgres {
  static let server = ProcessInfo.processInfo.environment["SERVER_TODOS_POSTGRES"]

  static var host: String { String(server?.split(separator: ":").first ?? "127.0.0.1") }
  static var port: Int { Int(server?.split(separator: ":").last ?? "") ?? 5432 }

  static var isAvailable: Bool {
    if server != nil { return true }
    if ProcessInfo.processInfo.environment["CI"] != nil {
      Issue.record("SERVER_TODOS_POSTGRES is not set: start scripts/postgres-cluster.sh first.")
    }
    return false
  }

  /// A fresh database's name.
  static func databaseName() -> String {
    "todos_" + UUID().uuidString.prefix(8).lowercased()
  }
}

/// A fresh SQLite file's path, removed by the caller.
func temporarySQLitePath() -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("todos-\(UUID().uuidString).sqlite").path
}

/// The todo app's migration, as plain SQL for the driver examples.
let todosSchema = [
  "CREATE TABLE todos (id integer PRIMARY KEY, title text NOT NULL, done boolean NOT NULL DEFAULT false)",
  "CREATE INDEX todos_title_idx ON todos (title)",
  "INSERT INTO todos (id, title, done) VALUES (1, 'Buy milk', false), (2, 'Walk the dog', true)",
]

/// Fluent's databases with `configuration`, migrated and holding two todos, for `body`.
func withMigratedDatabases(
  _ configuration: DatabaseConfigurationFactory,
  migrate: Bool = true,
  _ body: (any Database) async throws -> Void
) async throws {
  let threads = NIOThreadPool(numberOfThreads: 1)
  threads.start()
  let databases = Databases(threadPool: threads, on: MultiThreadedEventLoopGroup.singleton)
  databases.use(configuration, as: .init(string: "todos"))
  let logger = Logger(label: "todos")
  let database = try #require(
    databases.database(
      logger: logger,
      on: MultiThreadedEventLoopGroup.singleton.any()
    )
  )
  let migrations = Migrations()
  migrations.add(CreateTodo())
  let migrator = Migrator(
    databases: databases,
    migrations: migrations,
    logger: logger,
    on: MultiThreadedEventLoopGroup.singleton.any()
  )
  do {
    if migrate {
      try await migrator.setupIfNeeded().get()
      try await migrator.prepareBatch().get()
      try await Todo(id: 1, title: "Buy milk").create(on: database)
      try await Todo(id: 2, title: "Walk the dog", done: true).create(on: database)
    }
    try await body(database)
  } catch {
    await databases.shutdownAsync()
    try? await threads.shutdownGracefully()
    throw error
  }
  await databases.shutdownAsync()
  try await threads.shutdownGracefully()
}

/// Fluent's configuration of a fresh database on the examples' server, made through its
/// `postgres` database.
func freshPostgresConfiguration() async throws -> SQLPostgresConfiguration {
  let name = ExamplePostgres.databaseName()
  let admin = SQLPostgresConfiguration(
    hostname: ExamplePostgres.host,
    port: ExamplePostgres.port,
    username: "postgres",
    password: nil,
    database: "postgres",
    tls: .disable
  )
  try await withMigratedDatabases(.postgres(configuration: admin), migrate: false) { database in
    _ = try await (database as! any PostgresDatabase).simpleQuery("CREATE DATABASE \(name)").get()
  }
  var configuration = admin
  configuration.coreConfiguration.database = name
  return configuration
}

/// Runs `body` with a connection to one of the examples' server's databases.
func withPostgres(
  database: String,
  _ body: (PostgresConnection) async throws -> Void
) async throws {
  let configuration = PostgresConnection.Configuration(
    host: ExamplePostgres.host,
    port: ExamplePostgres.port,
    username: "postgres",
    password: nil,
    database: database,
    tls: .disable
  )
  let connection = try await PostgresConnection.connect(
    configuration: configuration,
    id: 1,
    logger: Logger(label: "todos")
  )
  do {
    try await body(connection)
  } catch {
    try? await connection.close()
    throw error
  }
  try await connection.close()
}

/// Runs `body` with a connection to a fresh database on the examples' server that holds the
/// todos of `todosSchema`.
func withTodosOnPostgres(_ body: (PostgresConnection) async throws -> Void) async throws {
  let name = ExamplePostgres.databaseName()
  try await withPostgres(database: "postgres") { admin in
    _ = try await admin.simpleQuery("CREATE DATABASE \(name)").get()
  }
  try await withPostgres(database: name) { connection in
    for statement in todosSchema { _ = try await connection.simpleQuery(statement).get() }
    try await body(connection)
  }
}
