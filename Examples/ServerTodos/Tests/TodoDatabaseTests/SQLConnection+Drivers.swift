import DatabaseSnapshotTesting
import Foundation
import PostgresNIO
import SQLiteNIO

// The lines the DatabaseSnapshotTesting article shows: each driver as an `SQLConnection`.

extension SQLConnection {
  /// PostgreSQL through PostgresNIO (a `PostgresConnection`, or Fluent's database).
  static func postgres(_ database: any PostgresDatabase, server: String) -> SQLConnection {
    SQLConnection(dialect: .postgreSQL, server: server) { sql in
      let rows = try await database.simpleQuery(sql).get()
      return SQLResult(
        columns: rows.first?.map(\.columnName) ?? [],
        rows: rows.map { row in row.map(value(of:)) }
      )
    }
  }

  /// A value as PostgreSQL prints it. PostgresNIO reads results in the binary format: numbers,
  /// booleans and bytes are decoded, other types (text, names, JSON) are their UTF-8 bytes.
  private static func value(of cell: PostgresCell) -> SQLValue {
    guard let bytes = cell.bytes else { return .null }
    if cell.format == .text { return .text(String(buffer: bytes)) }
    switch cell.dataType {
    case .bool: return .text((try? cell.decode(Bool.self)) == true ? "t" : "f")
    case .int2, .int4, .int8: return .text((try? cell.decode(Int.self)).map { "\($0)" } ?? "?")
    case .float4, .float8: return .text((try? cell.decode(Double.self)).map { "\($0)" } ?? "?")
    case .bytea: return .bytes(Data(bytes.readableBytesView))
    case .uuid: return .text((try? cell.decode(UUID.self))?.uuidString.lowercased() ?? "?")
    default: return .text((try? cell.decode(String.self)) ?? String(buffer: bytes))
    }
  }

  /// SQLite through SQLiteNIO (a `SQLiteConnection`, or Fluent's database).
  static func sqlite(_ database: any SQLiteDatabase, path: String) -> SQLConnection {
    SQLConnection(dialect: .sqlite, server: path) { sql in
      let rows = try await database.query(sql)
      return SQLResult(
        columns: rows.first?.columns.map(\.name) ?? [],
        rows: rows.map { row in
          row.columns.map { column in
            switch column.data {
            case .null: .null
            case .integer(let value): .text(String(value))
            case .float(let value): .text(String(value))
            case .text(let value): .text(value)
            case .blob(let value): .bytes(Data(value.readableBytesView))
            }
          }
        }
      )
    }
  }
}
