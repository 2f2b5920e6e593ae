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
    try await withTodosOnPostgres { connection in
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
}
