import Foundation

/// A database the strategies can ask: a closure that runs one SQL statement and returns its
/// result as text, with the database's dialect and, for failure messages, where it is.
///
/// The package depends on no database driver; a few lines over yours make one (the article
/// <doc:DatabaseSnapshots> has them for PostgresNIO, SQLiteNIO and Fluent):
///
/// ```swift
/// let database = SQLConnection(dialect: .sqlite, server: "todos.sqlite") { sql in
///   try await myDriver.query(sql)  // column names and rows, each value as text or NULL
/// }
/// assertSnapshot(of: database, as: .rows("SELECT id, title FROM todos ORDER BY id"))
/// ```
///
/// The strategies run only statements that read: the user's own SQL in ``SnapshotTesting/Snapshotting/rows(_:limit:)``,
/// `EXPLAIN` of it (never `EXPLAIN ANALYZE`) in ``SnapshotTesting/Snapshotting/queryPlan(_:costs:)``, and
/// catalog queries in ``SnapshotTesting/Snapshotting/schema``.
public struct SQLConnection: Sendable {
  /// The database's SQL dialect; `nil` to detect it with `SELECT version()` and, if that fails,
  /// `SELECT sqlite_version()` (both read nothing the user owns).
  public var dialect: SQLDialect?

  /// Where the database is (`"127.0.0.1:5432"`, a file's path), named in failures: a query that
  /// fails, or a server that does not answer within the assertion's `timeout:`.
  public var server: String?

  /// Runs one SQL statement and returns its column names and rows; throws the database's error.
  public var run: @Sendable (_ sql: String) async throws -> SQLResult

  /// A connection over `run`.
  ///
  /// - Parameters:
  ///   - dialect: The database's dialect, or `nil` to detect it.
  ///   - server: Where the database is, for failure messages.
  ///   - run: Runs one SQL statement and returns its result, or throws the database's error.
  public init(
    dialect: SQLDialect? = nil,
    server: String? = nil,
    run: @escaping @Sendable (_ sql: String) async throws -> SQLResult
  ) {
    self.dialect = dialect
    self.server = server
    self.run = run
  }
}

/// The SQL dialects whose catalogs and plans the strategies read.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
  /// PostgreSQL: `pg_catalog`, `EXPLAIN (COSTS OFF)`.
  case postgreSQL = "PostgreSQL"
  /// SQLite: `sqlite_schema`, pragmas, `EXPLAIN QUERY PLAN`.
  case sqlite = "SQLite"
}

/// What one statement returned: its column names and its rows, each value as the database
/// printed it.
public struct SQLResult: Sendable, Hashable {
  /// The column names, in order; empty for a statement that returns no rows (`CREATE TABLE`).
  public var columns: [String]
  /// The rows, each with one value per column.
  public var rows: [[SQLValue]]

  /// A result with these columns and rows.
  public init(columns: [String], rows: [[SQLValue]] = []) {
    self.columns = columns
    self.rows = rows
  }
}

/// One value of a result.
public enum SQLValue: Sendable, Hashable {
  /// SQL `NULL`.
  case null
  /// A value as the database prints it as text (`42`, `t`, `2024-05-01 12:00:00+00`).
  case text(String)
  /// Bytes (`bytea`, a `BLOB`), shown as their size and SHA-256.
  case bytes(Data)
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByNilLiteral {
  /// A text value.
  public init(stringLiteral value: String) { self = .text(value) }
  /// `NULL`.
  public init(nilLiteral: ()) { self = .null }
}
