import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import PostgresNIO
import SQLiteNIO
import Testing
import TranscriptSnapshotTesting

/// The SQL a request ran, in its transcript, from each driver against a real PostgreSQL and real
/// SQLite files. Fluent's SQL drivers log each statement through SQLKit (`Executing query`, at
/// `.debug`, with its `sql` and `binds`), and Fluent traces each query; PostgresNIO and
/// SQLiteNIO log no statement, so the app adds one line: SQLKit over the connection, or a log
/// entry where it runs its statements.
///
/// The transcripts leave out `.trace` entries (`minimumLevel: .debug`): PostgresNIO logs every
/// message it sends and receives there, the bind values included. Fluent's leave out `.debug`
/// too, with its SQL drivers' statements raised to `.info` (`sqlLogLevel:`): Fluent logs its own
/// account of each query at `.debug`, values included, in dictionaries whose order changes from
/// run to run.
@Suite struct StatementTranscriptTests {
  init() {
    // Fluent traces through `InstrumentationSystem.tracer`: its spans reach the capture of the
    // task that starts them once the process's tracer is the transcript's.
    Transcript.bootstrap()
  }

  @Test func fluentOnSQLite() async throws {
    let path = temporarySQLitePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let transcript = try await fluentTranscript(.sqlite(.file(path), sqlLogLevel: .info))
    assertSnapshot(of: transcript, as: .transcript(minimumLevel: .info))
  }

  @Test func fluentOnPostgreSQL() async throws {
    guard ExamplePostgres.isAvailable else { return }
    let configuration = try await freshPostgresConfiguration()
    let transcript = try await fluentTranscript(
      .postgres(configuration: configuration, sqlLogLevel: .info))
    assertSnapshot(of: transcript, as: .transcript(minimumLevel: .info))
  }

  /// The transcript of `PATCH /todos/1` through Fluent, on a database `configuration` makes
  /// and Fluent migrates.
  private func fluentTranscript(
    _ configuration: DatabaseConfigurationFactory
  ) async throws -> Transcript {
    var transcript: Transcript?
    try await withMigratedDatabases(configuration) { database in
      transcript = await Transcript.record { capture in
        let logged = database.logging(to: capture.logger(label: "todos"))
        try await completeTodo(id: 1, on: logged, capture: capture)
      }
    }
    return try #require(transcript)
  }

  /// PostgresNIO through PostgresKit's SQLKit: `connection.sql(logger:)` is the one line.
  @Test func postgresNIOThroughSQLKit() async throws {
    guard ExamplePostgres.isAvailable else { return }
    try await withTodosOnPostgres { connection in
      let transcript = await Transcript.record { capture in
        let database = connection.sql(logger: capture.logger(label: "todos"))
        try await completeTodo(id: 2, on: database, capture: capture)
      }
      assertSnapshot(of: transcript, as: .transcript(minimumLevel: .debug))
    }
  }

  /// PostgresNIO's own API, with the one line before each statement in the app's one place that
  /// runs them.
  @Test func postgresNIOWithALogLine() async throws {
    guard ExamplePostgres.isAvailable else { return }
    try await withTodosOnPostgres { connection in
      let transcript = await Transcript.record { capture in
        let logger = capture.logger(label: "todos")
        capture.record(HTTPRequest(method: .patch, scheme: nil, authority: nil, path: "/todos/1"))
        let id = 1
        try await run("UPDATE todos SET done = true WHERE id = \(id)", on: connection, logger: logger)
        let rows = try await run(
          "SELECT title FROM todos WHERE id = \(id)", on: connection, logger: logger)
        let status: HTTPResponse.Status = rows.isEmpty ? .notFound : .noContent
        capture.record(HTTPResponse(status: status))
      }
      assertSnapshot(of: transcript, as: .transcript(minimumLevel: .debug))
    }
  }

  /// SQLiteNIO through SQLiteKit's SQLKit: `connection.logging(to:).sql()` is the one line.
  @Test func sqliteNIOThroughSQLKit() async throws {
    let path = temporarySQLitePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let connection = try await SQLiteConnection.open(storage: .file(path: path))
    for statement in todosSchema { _ = try await connection.query(statement) }
    let transcript = await Transcript.record { capture in
      let database = connection.logging(to: capture.logger(label: "todos")).sql()
      try await completeTodo(id: 2, on: database, capture: capture)
    }
    assertSnapshot(of: transcript, as: .transcript(minimumLevel: .debug))
    try await connection.close()
  }

  /// The work of `PATCH /todos/:id` with Fluent: find the todo, mark it done, save it.
  private func completeTodo(
    id: Int,
    on database: any Database,
    capture: TranscriptCapture
  ) async throws {
    capture.record(HTTPRequest(method: .patch, scheme: nil, authority: nil, path: "/todos/\(id)"))
    guard let todo = try await Todo.find(id, on: database) else {
      capture.record(HTTPResponse(status: .notFound))
      return
    }
    todo.done = true
    try await todo.save(on: database)
    capture.record(HTTPResponse(status: .noContent))
  }

  /// The same work with SQLKit, its bind parameters interpolated with `bind:`.
  private func completeTodo(
    id: Int,
    on database: any SQLDatabase,
    capture: TranscriptCapture
  ) async throws {
    capture.record(HTTPRequest(method: .patch, scheme: nil, authority: nil, path: "/todos/\(id)"))
    try await database.raw("UPDATE todos SET done = true WHERE id = \(bind: id)").run()
    let rows = try await database.raw("SELECT title FROM todos WHERE id = \(bind: id)").all()
    capture.record(HTTPResponse(status: rows.isEmpty ? .notFound : .noContent))
  }

  /// The app's one place that runs a statement with PostgresNIO, and the one line that logs it.
  private func run(
    _ query: PostgresQuery,
    on connection: PostgresConnection,
    logger: Logger
  ) async throws -> [PostgresRow] {
    logger.debug("Executing query", metadata: ["sql": "\(query.sql)"])
    var rows: [PostgresRow] = []
    for try await row in try await connection.query(query, logger: logger) { rows.append(row) }
    return rows
  }
}
