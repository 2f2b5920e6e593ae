import DatabaseSnapshotTesting
import Foundation
import TestSupport
import Testing

/// What fails, and how it says so: the database's own error, a result past the limit, a server
/// that is not there or does not answer, rows whose order the query does not fix, a lost index.
@Suite struct FailureTests {
  let article = "Sources/DatabaseSnapshotTesting/Documentation.docc/DatabaseSnapshots.md"

  /// Verifies in a fresh folder with `record`, then, after `change` if given, again without
  /// recording; the last message and the files left in the folder.
  func verify(
    _ connection: SQLConnection,
    as strategy: Snapshotting<SQLConnection, String>,
    record: SnapshotTestingConfiguration.Record = .all,
    timeout: TimeInterval = 60,
    after change: (@Sendable () async throws -> Void)? = nil
  ) async throws -> (message: String?, files: [String]) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("database-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    var message = await offThePool {
      verifySnapshot(
        of: connection,
        as: strategy,
        named: "value",
        record: record,
        snapshotDirectory: folder.path,
        timeout: timeout,
        testName: "database"
      )
    }
    if let change {
      try await change()
      message = await offThePool {
        verifySnapshot(
          of: connection,
          as: strategy,
          named: "value",
          record: .never,
          snapshotDirectory: folder.path,
          timeout: timeout,
          testName: "database"
        )
      }
    }
    return (message, files(under: folder))
  }

  @Test(arguments: Engine.allCases)
  func aFailingQueryGivesTheDatabasesError(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    let (message, files) = try await verify(
      database.connection,
      as: .rows("SELECT nope FROM todos")
    )
    let error =
      engine == .postgreSQL ? #"column "nope" does not exist"# : "no such column: nope"
    #expect(message?.contains(error) == true, "\(message ?? "")")
    #expect(message?.contains("refused `SELECT nope FROM todos`") == true)
    #expect(files == [])
    if engine == .postgreSQL, let server = database.connection.server {
      // The article shows a run's message; only the cluster's port differs.
      let shown = try codeBlock(in: article, after: "fails with the database's own error:")
      let message = (message ?? "").replacingOccurrences(of: server, with: "127.0.0.1:38851")
      #expect(message.contains(shown), "\(message)")
    }
  }

  @Test(arguments: Engine.allCases)
  func aMillionRowsAreCutAtTheLimit(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    let sql =
      engine == .postgreSQL
      ? "SELECT n FROM generate_series(1, 1000000) n"
      : "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000000) SELECT n FROM g"
    // A generous timeout: a million rows take seconds to read in a debug build on a busy machine.
    let (message, files) = try await verify(database.connection, as: .rows(sql), timeout: 600)
    #expect(
      message?.contains("returned 1000000 rows, more than the limit of 10000 a snapshot holds")
        == true,
      "\(message ?? "")"
    )
    #expect(files == [])
    if engine == .postgreSQL {
      let shown = try codeBlock(in: article, after: "fails the assertion and records nothing:")
      #expect(message?.contains(shown) == true, "\(message ?? "")")
    }
  }

  @Test func anUnreachableServerIsNamed() async throws {
    // A port on which nothing listens: the server's own port, once it is known, plus one is not
    // guaranteed free, so use one below 1024 that no test binds.
    let connection = Psql(port: 9, database: "postgres").connection
    // The refusal comes at once; the long timeout only rides out a machine whose threads are all
    // busy with other tests (it once took more than a minute on the shared 2-core machine).
    let (message, _) = try await verify(connection, as: .rows("SELECT 1"), timeout: 600)
    #expect(message?.contains("127.0.0.1:9") == true, "\(message ?? "")")
    #expect(message?.contains("Connection refused") == true, "\(message ?? "")")
  }

  @Test func aServerThatDoesNotAnswerFailsWithinTheTimeoutNamingIt() async throws {
    let database = try await TestDatabase.make(.postgreSQL)
    let start = Date()
    let (message, _) = try await verify(
      database.connection,
      as: .rows("SELECT pg_sleep(30)"),
      timeout: 1
    )
    #expect(Date().timeIntervalSince(start) < 10)
    let server = database.connection.server ?? ""
    #expect(
      message?.contains(
        "still waiting for the database at \(server) to answer `SELECT pg_sleep(30)`"
      )
        == true,
      "\(message ?? "")"
    )
  }

  @Test(arguments: Engine.allCases)
  func rowsWithoutOrderByGetANoteInTheFailure(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    let (unordered, _) = try await verify(
      database.connection,
      as: .rows("SELECT id, title FROM todos"),
      after: { try await database.execute("UPDATE todos SET title = 'Buy oat milk' WHERE id = 1") }
    )
    #expect(unordered?.contains("Note: the query has no ORDER BY") == true, "\(unordered ?? "")")
    let note = try codeBlock(in: article, after: "one row, a failure ends with a note:")
    #expect(unordered?.contains(note) == true, "\(unordered ?? "")")
    let (ordered, _) = try await verify(
      database.connection,
      as: .rows("SELECT id, title FROM todos ORDER BY id"),
      after: { try await database.execute("UPDATE todos SET title = 'Buy rice milk' WHERE id = 1") }
    )
    #expect(ordered?.contains("+1  | Buy rice milk") == true, "\(ordered ?? "")")
    #expect(ordered?.contains("ORDER BY") == false)
  }

  @Test(arguments: Engine.allCases)
  func aDroppedIndexFailsThePlanWithOneChangedLine(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    try await database.fillTodos()
    let (message, _) = try await verify(
      database.connection,
      as: .queryPlan("SELECT id, title FROM todos WHERE title = 'Buy milk'"),
      after: { try await database.execute("DROP INDEX todos_title_idx") }
    )
    let lines = (message ?? "").split(separator: "\n")
    let removed = lines.filter { $0.hasPrefix("−") && !$0.hasPrefix("−−") }
    let added = lines.filter { $0.hasPrefix("+") && !$0.hasPrefix("++") }
    #expect(
      removed.count == 1 && removed.first?.contains("todos_title_idx") == true,
      "\(message ?? "")"
    )
    #expect(added.count == 1, "\(message ?? "")")
    if engine == .postgreSQL {
      let shown = try codeBlock(in: article, after: "each fails with one changed line:")
      #expect(message?.contains(shown) == true, "\(message ?? "")")
    }
  }

  @Test(arguments: Engine.allCases)
  func aDroppedIndexFailsTheSchema(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    let (message, _) = try await verify(
      database.connection,
      as: .schema,
      after: { try await database.execute("DROP INDEX todos_title_idx") }
    )
    #expect(message?.contains("−  INDEX todos_title_idx") == true, "\(message ?? "")")
  }
}
