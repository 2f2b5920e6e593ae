import DatabaseSnapshotTesting
import Foundation
import Testing

/// The two real databases every strategy is tested against.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case postgreSQL
  case sqlite

  var testDescription: String { rawValue }
}

/// A fresh database of one engine: a PostgreSQL database of its own on the test server, or a
/// SQLite file; `execute` runs the test's own setup statements through the same connection.
struct TestDatabase: Sendable {
  let engine: Engine
  let connection: SQLConnection
  /// Keeps a SQLite file open (and removes it when the last copy goes).
  private let file: SQLiteFile?

  static func make(_ engine: Engine) async throws -> TestDatabase {
    switch engine {
    case .postgreSQL:
      let server = try await PostgreSQLServer.shared()
      return TestDatabase(engine: engine, connection: try await server.makeDatabase(), file: nil)
    case .sqlite:
      let file = try SQLiteFile.temporary()
      return TestDatabase(engine: engine, connection: file.connection, file: file)
    }
  }

  /// Runs each statement in order.
  func execute(_ statements: String...) async throws {
    for statement in statements { _ = try await connection.run(statement) }
  }

  /// The todo app's schema and a few rows, in the engine's SQL.
  func makeTodos() async throws {
    try await execute(
      "CREATE TABLE lists (id integer PRIMARY KEY, name text NOT NULL UNIQUE)",
      """
      CREATE TABLE todos (
        id integer PRIMARY KEY,
        list_id integer NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
        title text NOT NULL CHECK (length(title) > 0),
        done boolean NOT NULL DEFAULT false,
        notes text
      )
      """,
      "CREATE INDEX todos_title_idx ON todos (title)",
      "CREATE VIEW open_todos AS SELECT id, title FROM todos WHERE NOT done",
      "INSERT INTO lists (id, name) VALUES (1, 'Home'), (2, 'Work')",
      """
      INSERT INTO todos (id, list_id, title, done, notes) VALUES
        (1, 1, 'Buy milk', false, NULL),
        (2, 1, 'Walk the dog', true, ''),
        (3, 2, 'Write the report', false, 'NULL'),
        (4, 2, 'Call Ana', false, 'line one
      line two')
      """
    )
  }

  /// Enough rows that the planner prefers an index to reading the whole table, and fresh
  /// statistics.
  func fillTodos() async throws {
    switch engine {
    case .postgreSQL:
      try await execute(
        """
        INSERT INTO todos (id, list_id, title) SELECT g, 1, 'Todo ' || g
        FROM generate_series(10, 20000) g
        """,
        "ANALYZE"
      )
    case .sqlite:
      try await execute(
        """
        WITH RECURSIVE g(n) AS (SELECT 10 UNION ALL SELECT n + 1 FROM g WHERE n < 20000)
        INSERT INTO todos (id, list_id, title) SELECT n, 1, 'Todo ' || n FROM g
        """,
        "ANALYZE"
      )
    }
  }
}

/// Whether the engine can run here; PostgreSQL needs Debian's server (CI installs it).
func isAvailable(_ engine: Engine) -> Bool {
  engine == .sqlite || PostgreSQLServer.isInstalled
}
