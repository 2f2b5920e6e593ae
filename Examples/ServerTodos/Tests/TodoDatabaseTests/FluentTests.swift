import DatabaseSnapshotTesting
import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Logging
import NIOPosix
import PostgresNIO
import SQLiteNIO
import Testing

/// A Fluent model and its migration, as an application has them.
final class Todo: Model, @unchecked Sendable {
  static let schema = "todos"
  @ID(custom: "id", generatedBy: .user) var id: Int?
  @Field(key: "title") var title: String
  @Field(key: "done") var done: Bool

  init() {}
  init(id: Int, title: String, done: Bool = false) {
    self.id = id
    self.title = title
    self.done = done
  }
}

struct CreateTodo: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("todos")
      .field("id", .int, .identifier(auto: false))
      .field("title", .string, .required)
      .field("done", .bool, .required, .sql(.default(false)))
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema("todos").delete()
  }
}

/// Fluent's database, migrated by Fluent, snapshotted through the same lines as the drivers:
/// Fluent's PostgreSQL database is a `PostgresDatabase`, its SQLite one a `SQLiteDatabase`.
@Suite struct FluentTests {
  @Test func fluentOnSQLite() async throws {
    let path = temporarySQLitePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await withMigratedDatabases(.sqlite(.file(path))) { database in
      let connection = try #require(database as? any SQLiteDatabase)
      let todos = SQLConnection.sqlite(connection, path: "todos.sqlite")
      await assertSnapshotAsync(of: todos, as: .schema)
      await assertSnapshotAsync(of: todos, as: .rows("SELECT * FROM todos ORDER BY id"))
    }
  }

  @Test func fluentOnPostgreSQL() async throws {
    guard ExamplePostgres.isAvailable else { return }
    let configuration = try await freshPostgresConfiguration()
    try await withMigratedDatabases(.postgres(configuration: configuration)) { database in
      let connection = try #require(database as? any PostgresDatabase)
      let todos = SQLConnection.postgres(connection, server: ExamplePostgres.server ?? "")
      await assertSnapshotAsync(of: todos, as: .schema)
      await assertSnapshotAsync(of: todos, as: .rows("SELECT * FROM todos ORDER BY id"))
    }
  }
}
