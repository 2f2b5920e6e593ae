// The database benchmark, issue 46's two bounds:
//
// - `.rows` of 10,000 rows at most 1.5× the driver's own time to fetch them: the driver's time
//   is one statement run through the system's C client library into an `SQLResult` (what an
//   `SQLConnection` over a driver returns); `.rows` is the same fetch with the table made from
//   it, and the matching assertion (`verifySnapshot`, the reference on disk) reads and compares
//   that table too;
// - `.schema` of a 50-table database under 200 ms on PostgreSQL (and, for comparison, SQLite).
//
// SQLite runs in a temporary file; PostgreSQL only when BENCHMARK_POSTGRES names a server
// (`127.0.0.1:PORT`, as `scripts/postgres-cluster.sh start` prints it; `Benchmarks/run.sh`
// starts one), where the benchmark makes a database of its own and drops it at the end.
//
// Rounds alternate the cases, so that a change in the machine's load hits all of them alike;
// each case's median is shown, in the process's CPU time and in wall time (PostgreSQL's own work
// is in another process: only wall time counts it).
//
// Usage:
//   DatabaseBenchmark [RUNS]    prints Markdown tables of medians (default 21 runs)

import CLibPQ
import CSQLite3
import DatabaseSnapshotTesting
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

struct BenchmarkError: Error, CustomStringConvertible { var description: String }

// MARK: The drivers

/// SQLite through its C library: each value as SQLite prints it, `NULL` as such.
final class SQLiteDriver: Sendable {
  private let handle: Mutex<OpaquePointer?>
  let path: String

  init(path: String) throws {
    var opened: OpaquePointer?
    guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
      == SQLITE_OK, let opened
    else {
      sqlite3_close_v2(opened)
      throw BenchmarkError(description: "cannot open \(path)")
    }
    self.path = path
    handle = Mutex(opened)
  }

  deinit {
    handle.withLock { database in
      if let database { sqlite3_close_v2(database) }
      database = nil
    }
  }

  /// Runs one statement; its columns and rows.
  func run(_ sql: String) throws -> SQLResult {
    try handle.withLock { database throws(BenchmarkError) -> SQLResult in
      var statement: OpaquePointer?
      guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
        throw BenchmarkError(description: String(cString: sqlite3_errmsg(database)))
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
              sqlite3_column_type(statement, column) == SQLITE_NULL
                ? .null : .text(String(cString: sqlite3_column_text(statement, column)))
            }
          )
        case SQLITE_DONE:
          return result
        default:
          throw BenchmarkError(description: String(cString: sqlite3_errmsg(database)))
        }
      }
    }
  }

  var connection: SQLConnection {
    SQLConnection(dialect: .sqlite, server: path) { sql in try self.run(sql) }
  }
}

/// PostgreSQL through libpq, results in the text format: each value as PostgreSQL prints it.
final class PostgresDriver: Sendable {
  private let handle: Mutex<OpaquePointer?>
  let server: String

  init(host: String, port: String, database: String) throws {
    let connection = PQconnectdb("host=\(host) port=\(port) user=postgres dbname=\(database)")
    guard let connection, PQstatus(connection) == CONNECTION_OK else {
      let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "no memory"
      PQfinish(connection)
      throw BenchmarkError(description: "cannot connect to \(host):\(port): \(message)")
    }
    server = "\(host):\(port)"
    handle = Mutex(connection)
  }

  deinit {
    handle.withLock { connection in
      PQfinish(connection)
      connection = nil
    }
  }

  /// Runs one statement; its columns and rows.
  func run(_ sql: String) throws -> SQLResult {
    try handle.withLock { connection throws(BenchmarkError) -> SQLResult in
      guard let result = PQexec(connection, sql) else {
        throw BenchmarkError(description: String(cString: PQerrorMessage(connection)))
      }
      defer { PQclear(result) }
      switch PQresultStatus(result) {
      case PGRES_COMMAND_OK:
        return SQLResult(columns: [])
      case PGRES_TUPLES_OK:
        let rows = PQntuples(result)
        let fields = PQnfields(result)
        var answer = SQLResult(columns: (0..<fields).map { String(cString: PQfname(result, $0)) })
        answer.rows.reserveCapacity(Int(rows))
        for row in 0..<rows {
          answer.rows.append(
            (0..<fields).map { field in
              PQgetisnull(result, row, field) == 1
                ? .null : .text(String(cString: PQgetvalue(result, row, field)))
            }
          )
        }
        return answer
      default:
        throw BenchmarkError(description: String(cString: PQresultErrorMessage(result)))
      }
    }
  }

  var connection: SQLConnection {
    SQLConnection(dialect: .postgreSQL, server: server) { sql in try self.run(sql) }
  }
}

// MARK: Timing

func processMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func wallMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func median(_ samples: [Double]) -> Double {
  let sorted = samples.sorted()
  return sorted[sorted.count / 2]
}

struct Times {
  var cpu: Double
  var wall: Double
}

/// Times the cases in rounds that alternate them, after one warm-up round; each case's medians.
func measure(runs: Int, _ cases: [(String, () throws -> Int)]) throws -> [String: Times] {
  for (_, body) in cases { _ = try body() }
  var cpu: [String: [Double]] = [:]
  var wall: [String: [Double]] = [:]
  for _ in 0..<runs {
    for (name, body) in cases {
      let (startWall, startCPU) = (wallMilliseconds(), processMilliseconds())
      let size = try body()
      let (endCPU, endWall) = (processMilliseconds(), wallMilliseconds())
      cpu[name, default: []].append(endCPU - startCPU)
      wall[name, default: []].append(endWall - startWall)
      if size == 0 { throw BenchmarkError(description: "\(name) produced nothing") }
    }
  }
  return cpu.mapValues(median).reduce(into: [:]) { times, pair in
    times[pair.key] = Times(cpu: pair.value, wall: median(wall[pair.key]!))
  }
}

func format(_ milliseconds: Double) -> String { String(format: "%.2f ms", milliseconds) }
func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }

/// The text a strategy makes, waited for as the assertion waits (the statements run on a task
/// of their own).
func text(of connection: SQLConnection, as strategy: Snapshotting<SQLConnection, String>) -> String
{
  let done = DispatchSemaphore(value: 0)
  let text = Mutex("")
  strategy.snapshot(connection).run { made in
    text.withLock { $0 = made }
    done.signal()
  }
  done.wait()
  return text.withLock { $0 }
}

let directory = FileManager.default.temporaryDirectory
  .appendingPathComponent("database-benchmark-\(getpid())", isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

/// One `verifySnapshot` in the benchmark's folder; its failure message.
func verify(
  _ connection: SQLConnection,
  as strategy: Snapshotting<SQLConnection, String>,
  named name: String,
  record: SnapshotTestingConfiguration.Record
) -> String? {
  verifySnapshot(
    of: connection,
    as: strategy,
    named: name,
    record: record,
    snapshotDirectory: directory.path,
    timeout: 120,
    testName: "benchmark"
  )
}

// MARK: The databases

let rowCount = 10_000
let tableCount = 50
let rowsQuery = "SELECT id, title, done, notes, created_at FROM todos ORDER BY id"

/// The statements that make the todos table of `rowCount` rows: five columns of the kinds an
/// application has (an integer, a title, a boolean, a text that is `NULL` one time in four, a
/// timestamp).
func todoStatements(_ dialect: SQLDialect) -> [String] {
  switch dialect {
  case .postgreSQL:
    return [
      """
      CREATE TABLE todos (id integer PRIMARY KEY, title text NOT NULL, done boolean NOT NULL,
        notes text, created_at timestamptz NOT NULL)
      """,
      """
      INSERT INTO todos SELECT n, 'Todo number ' || n || ' of the list', n % 3 = 0,
        CASE WHEN n % 4 = 0 THEN NULL ELSE 'A note about todo ' || n END,
        timestamptz '2024-05-01 12:00:00+00' + n * interval '1 minute'
      FROM generate_series(1, \(rowCount)) n
      """,
    ]
  case .sqlite:
    return [
      """
      CREATE TABLE todos (id integer PRIMARY KEY, title text NOT NULL, done boolean NOT NULL,
        notes text, created_at text NOT NULL)
      """,
      """
      WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < \(rowCount))
      INSERT INTO todos SELECT n, 'Todo number ' || n || ' of the list', n % 3 = 0,
        CASE WHEN n % 4 = 0 THEN NULL ELSE 'A note about todo ' || n END,
        datetime('2024-05-01 12:00:00', '+' || n || ' minutes')
      FROM n
      """,
    ]
  }
}

/// The statements that make a schema of `tableCount` tables, each with six columns, a primary
/// key, a foreign key to the one before, a check, a unique constraint and an index, and a view
/// over every tenth.
func schemaStatements(_ dialect: SQLDialect) -> [String] {
  var statements: [String] = []
  for table in 1...tableCount {
    let reference = table > 1 ? "REFERENCES table_\(table - 1)(id)" : ""
    statements.append(
      """
      CREATE TABLE table_\(table) (id integer PRIMARY KEY, parent_id integer \(reference),
        name text NOT NULL UNIQUE, amount numeric(10, 2) DEFAULT 0 CHECK (amount >= 0),
        created_at \(dialect == .postgreSQL ? "timestamptz" : "text") NOT NULL,
        notes text)
      """
    )
    statements.append("CREATE INDEX table_\(table)_parent ON table_\(table) (parent_id, name)")
    if table % 10 == 0 {
      statements.append(
        "CREATE VIEW view_\(table) AS SELECT id, name FROM table_\(table) WHERE amount > 0")
    }
  }
  return statements
}

let runs = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 21

/// Measures one database and prints its lines of the tables.
func benchmark(
  _ name: String,
  rows rowsDriver: (connection: SQLConnection, fetch: (String) throws -> SQLResult),
  schema schemaConnection: SQLConnection
) throws -> (rows: String, schema: String) {
  let rows = Snapshotting<SQLConnection, String>.rows(rowsQuery)
  let fetched = try rowsDriver.fetch(rowsQuery)
  guard fetched.rows.count == rowCount else {
    throw BenchmarkError(description: "\(name) returned \(fetched.rows.count) rows")
  }
  guard verify(rowsDriver.connection, as: rows, named: "\(name)-rows", record: .all) != nil,
    verify(schemaConnection, as: .schema, named: "\(name)-schema", record: .all) != nil
  else {
    throw BenchmarkError(description: "recording \(name)'s references reported no recording")
  }
  let schemaText = text(of: schemaConnection, as: .schema)
  guard schemaText.components(separatedBy: "\nTABLE ").count == tableCount else {
    throw BenchmarkError(description: "\(name)'s schema does not have \(tableCount) tables")
  }
  let prefetched = SQLConnection(dialect: rowsDriver.connection.dialect) { _ in fetched }
  let times = try measure(
    runs: runs,
    [
      ("fetch", { try rowsDriver.fetch(rowsQuery).rows.count }),
      ("rows", { text(of: rowsDriver.connection, as: rows).utf8.count }),
      // The strategy's own part: the same rows, fetched once before, handed back at once.
      ("table", { text(of: prefetched, as: rows).utf8.count }),
      (
        "rows matching",
        {
          if let failure = verify(rowsDriver.connection, as: rows, named: "\(name)-rows", record: .never) {
            throw BenchmarkError(description: failure)
          }
          return 1
        }
      ),
      ("schema", { text(of: schemaConnection, as: .schema).utf8.count }),
    ]
  )
  let fetch = times["fetch"]!
  var rowsLines = ""
  for (key, title) in [("rows", "`.rows` (fetch and table)"), ("rows matching", "`.rows` matching, reference on disk")] {
    let time = times[key]!
    rowsLines += "| \(name) | \(title) | \(format(fetch.cpu)) | \(format(time.cpu)) "
      + "| **\(ratio(time.cpu, fetch.cpu))** | \(format(fetch.wall)) | \(format(time.wall)) "
      + "| **\(ratio(time.wall, fetch.wall))** |\n"
  }
  let table = times["table"]!
  rowsLines += "| \(name) | the table alone (rows fetched before) | \(format(fetch.cpu)) "
    + "| \(format(table.cpu)) | \(ratio(table.cpu, fetch.cpu)) | \(format(fetch.wall)) "
    + "| \(format(table.wall)) | \(ratio(table.wall, fetch.wall)) |\n"
  let schema = times["schema"]!
  let schemaLine = "| \(name) | \(tableCount) | \(schemaText.split(separator: "\n").count) "
    + "| \(format(schema.cpu)) | **\(format(schema.wall))** |\n"
  return (rowsLines, schemaLine)
}

// `DatabaseBenchmark RUNS --profile-rows` only runs `.rows` on SQLite RUNS times, for a profiler.
if CommandLine.arguments.contains("--profile-rows") {
  let driver = try SQLiteDriver(path: directory.appendingPathComponent("profile.sqlite").path)
  for statement in todoStatements(.sqlite) { _ = try driver.run(statement) }
  for _ in 0..<runs { _ = text(of: driver.connection, as: .rows(rowsQuery)) }
  exit(0)
}

var rowsTable = ""
var schemaTable = ""

// SQLite: the rows and the schema in two files.
do {
  let rowsDriver = try SQLiteDriver(path: directory.appendingPathComponent("todos.sqlite").path)
  for statement in todoStatements(.sqlite) { _ = try rowsDriver.run(statement) }
  let schemaDriver = try SQLiteDriver(path: directory.appendingPathComponent("schema.sqlite").path)
  for statement in schemaStatements(.sqlite) { _ = try schemaDriver.run(statement) }
  let lines = try benchmark(
    "SQLite \(String(cString: sqlite3_libversion()))",
    rows: (rowsDriver.connection, rowsDriver.run),
    schema: schemaDriver.connection
  )
  rowsTable += lines.rows
  schemaTable += lines.schema
}

// PostgreSQL: two databases of the benchmark's own on the server named (the rows, the schema),
// dropped at the end.
if let server = ProcessInfo.processInfo.environment["BENCHMARK_POSTGRES"] {
  let parts = server.split(separator: ":").map(String.init)
  guard parts.count == 2 else {
    throw BenchmarkError(description: "BENCHMARK_POSTGRES is not HOST:PORT: \(server)")
  }
  let names = ["benchmark_rows_\(getpid())", "benchmark_schema_\(getpid())"]
  let admin = try PostgresDriver(host: parts[0], port: parts[1], database: "postgres")
  for name in names { _ = try admin.run("CREATE DATABASE \(name)") }
  defer { for name in names { _ = try? admin.run("DROP DATABASE \(name)") } }
  do {
    let rowsDriver = try PostgresDriver(host: parts[0], port: parts[1], database: names[0])
    for statement in todoStatements(.postgreSQL) { _ = try rowsDriver.run(statement) }
    _ = try rowsDriver.run("ANALYZE")
    let schemaDriver = try PostgresDriver(host: parts[0], port: parts[1], database: names[1])
    for statement in schemaStatements(.postgreSQL) { _ = try schemaDriver.run(statement) }
    var version = ""
    if case .text(let text)? = try rowsDriver.run("SHOW server_version").rows.first?.first {
      version = String(text.split(separator: " ").first ?? "")
    }
    let lines = try benchmark(
      "PostgreSQL \(version)",
      rows: (rowsDriver.connection, rowsDriver.run),
      schema: schemaDriver.connection
    )
    rowsTable += lines.rows
    schemaTable += lines.schema
  }
}

print("### `.rows` of \(rowCount) rows against the driver's fetch (median of \(runs))\n")
print(
  "| database | case | fetch, CPU | case, CPU | ÷ fetch | fetch, wall | case, wall | ÷ fetch |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
print(rowsTable)
print("### `.schema` of a \(tableCount)-table database (median of \(runs))\n")
print("| database | tables | lines | CPU | wall |")
print("|---|---:|---:|---:|---:|")
print(schemaTable)
