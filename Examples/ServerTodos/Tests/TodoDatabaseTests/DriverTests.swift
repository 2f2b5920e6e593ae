import DatabaseSnapshotTesting
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import SQLiteNIO
import Testing

/// PostgresNIO and SQLiteNIO, each through the few lines of `SQLConnection+Drivers.swift`.
@Suite struct DriverTests {
  @Test func postgresNIO() async throws {
    guard ExamplePostgres.isAvailable else { return }
    let name = ExamplePostgres.databaseName()
    try await withPostgres(database: "postgres") { admin in
      _ = try await admin.simpleQuery("CREATE DATABASE \(name)").get()
    }
    try await withPostgres(database: name) { connection in
      for statement in todosSchema { _ = try await connection.simpleQuery(statement).get() }
      let database = SQLConnection.postgres(connection, server: ExamplePostgres.server ?? "")
      await assertSnapshotAsync(
        of: database,
        as: .rows("SELECT id, title, done FROM todos ORDER BY id")
      )
      await assertSnapshotAsync(of: database, as: .schema)
      await assertSnapshotAsync(
        of: database,
        as: .queryPlan("SELECT id FROM todos WHERE title = 'Buy milk'")
      )
    }
  }

  @Test func sqliteNIO() async throws {
    let path = temporarySQLitePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let connection = try await SQLiteConnection.open(storage: .file(path: path))
    for statement in todosSchema { _ = try await connection.query(statement) }
    let database = SQLConnection.sqlite(connection, path: "todos.sqlite")
    await assertSnapshotAsync(
      of: database,
      as: .rows("SELECT id, title, done FROM todos ORDER BY id")
    )
    await assertSnapshotAsync(of: database, as: .schema)
    await assertSnapshotAsync(
      of: database,
      as: .queryPlan("SELECT id FROM todos WHERE title = 'Buy milk'")
    )
    try await connection.close()
  }

  /// Runs `body` with a connection to one of the examples' server's databases.
  private func withPostgres(
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
}
