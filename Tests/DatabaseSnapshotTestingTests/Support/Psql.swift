import ChildProcesses
import DatabaseSnapshotTesting
import Foundation

/// A connection to the test server that runs each statement with `psql --csv`, a real client
/// process: the "few lines over a driver" a user writes, with `psql` as the driver. SQL `NULL`
/// is printed as a marker no value holds; the database's error is psql's standard error.
struct Psql: Sendable {
  let port: Int
  let database: String
  var host = "127.0.0.1"

  /// What `psql` printed on standard error when the statement failed.
  struct Error: Swift.Error, CustomStringConvertible {
    var description: String
  }

  private static let nullMarker = "\u{1}NULL-\(UUID().uuidString)\u{1}"

  var connection: SQLConnection {
    SQLConnection(server: "\(host):\(port)") { sql in try await run(sql) }
  }

  func run(_ sql: String) async throws -> SQLResult {
    let arguments = [
      "-X", "-q", "-h", host, "-p", String(port), "-U", "postgres", "-d", database, "--csv",
      "-v", "ON_ERROR_STOP=1", "-P", "null=\(Self.nullMarker)", "-c", sql,
    ]
    let result = try await ChildProgram.run(
      "/usr/bin/psql",
      arguments,
      timeout: 600,
      environment: ["PGCONNECT_TIMEOUT": "10"],
      finish: Self.result(of:)
    )
    return try result.get()
  }

  /// The result `psql` printed, or its error; made on the runner's thread.
  private static func result(of run: ChildRun) -> Result<SQLResult, Error> {
    guard run.termination == .exited(0) else {
      var message = String(decoding: run.standardError, as: UTF8.self)
      while message.last?.isNewline == true { message.removeLast() }
      return .failure(Error(description: message))
    }
    let records = CSV.records(of: run.standardOutput)
    guard let header = records.first else { return .success(SQLResult(columns: [])) }
    let rows = records.dropFirst().map { record in
      record.map { $0 == nullMarker ? SQLValue.null : .text($0) }
    }
    return .success(SQLResult(columns: header, rows: rows))
  }
}

/// RFC 4180 records, as `psql --csv` writes them: fields quoted when they hold a comma, a quote
/// or a line break, quotes doubled.
enum CSV {
  static func records(of data: Data) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field: [UInt8] = []
    var quoted = false
    var index = data.startIndex
    func endField() {
      record.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
    }
    while index < data.endIndex {
      let byte = data[index]
      if quoted {
        if byte == UInt8(ascii: "\"") {
          let next = data.index(after: index)
          if next < data.endIndex && data[next] == UInt8(ascii: "\"") {
            field.append(byte)
            index = next
          } else {
            quoted = false
          }
        } else {
          field.append(byte)
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""): quoted = true
        case UInt8(ascii: ","): endField()
        case UInt8(ascii: "\n"):
          endField()
          records.append(record)
          record = []
        case UInt8(ascii: "\r"): break
        default: field.append(byte)
        }
      }
      index = data.index(after: index)
    }
    if !field.isEmpty || !record.isEmpty {
      endField()
      records.append(record)
    }
    return records
  }
}
