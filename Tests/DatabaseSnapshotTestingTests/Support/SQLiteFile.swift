import CSQLite
import DatabaseSnapshotTesting
import Foundation
import Synchronization

/// A real SQLite database in a file, through the system library: the tests' SQLite connection.
/// Values come back by their storage class: `NULL`, bytes for a `BLOB`, text for the others (as
/// SQLite prints them).
final class SQLiteFile: Sendable {
  let path: String
  private let handle: Mutex<OpaquePointer?>

  struct Error: Swift.Error, CustomStringConvertible {
    var description: String
  }

  /// Opens (creating) the database at `path`.
  init(path: String) throws {
    var opened: OpaquePointer?
    let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard code == SQLITE_OK, let opened else {
      sqlite3_close_v2(opened)
      throw Error(description: "Cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
    }
    self.path = path
    handle = Mutex(opened)
  }

  /// A new database in a temporary file.
  static func temporary() throws -> SQLiteFile {
    try SQLiteFile(
      path: FileManager.default.temporaryDirectory
        .appendingPathComponent("snapshot-testing-\(UUID().uuidString).sqlite").path
    )
  }

  deinit {
    handle.withLock { database in
      if let database { sqlite3_close_v2(database) }
      database = nil
    }
    try? FileManager.default.removeItem(atPath: path)
  }

  /// The connection the strategies take; each statement runs on a thread of its own, as a
  /// driver's thread pool would, never on Swift's cooperative pool.
  var connection: SQLConnection {
    SQLConnection(server: path) { sql in
      try await offThePool { Result { try self.run(sql) } }.get()
    }
  }

  /// Runs one statement and returns its columns and rows.
  func run(_ sql: String) throws -> SQLResult {
    try handle.withLock { database throws(Error) -> SQLResult in
      guard let database else { throw Error(description: "The database is closed.") }
      var statement: OpaquePointer?
      guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
        throw Error(description: String(cString: sqlite3_errmsg(database)))
      }
      defer { sqlite3_finalize(statement) }
      let count = sqlite3_column_count(statement)
      var result = SQLResult(
        columns: (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
      )
      while true {
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
          result.rows.append(
            (0..<count).map { column in
              switch sqlite3_column_type(statement, column) {
              case SQLITE_NULL: return .null
              case SQLITE_BLOB:
                let size = Int(sqlite3_column_bytes(statement, column))
                guard size > 0, let bytes = sqlite3_column_blob(statement, column) else {
                  return .bytes(Data())
                }
                return .bytes(Data(bytes: bytes, count: size))
              default:
                return .text(String(cString: sqlite3_column_text(statement, column)))
              }
            }
          )
        case SQLITE_DONE:
          return result
        default:
          throw Error(description: String(cString: sqlite3_errmsg(database)))
        }
      }
    }
  }
}
