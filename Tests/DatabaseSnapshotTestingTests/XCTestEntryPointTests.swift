import DatabaseSnapshotTesting
import TestSupport
import XCTest

/// The strategies through XCTest: matching committed references, and failing with the
/// database's error.
final class DatabaseXCTestEntryPointTests: FailureCapturingTestCase {
  func testRowsSchemaAndPlanMatchTheirReferences() async throws {
    for engine in Engine.allCases {
      let database = try await TestDatabase.make(engine)
      try await database.makeTodos()
      try await database.fillTodos()
      await assertSnapshotAsync(
        of: database.connection,
        as: .rows("SELECT id, title, done FROM todos WHERE id < 5 ORDER BY id"),
        named: "rows-\(engine.rawValue)",
        timeout: 60
      )
      await assertSnapshotAsync(
        of: database.connection,
        as: .schema,
        named: "schema-\(engine.rawValue)",
        timeout: 60
      )
      await assertSnapshotAsync(
        of: database.connection,
        as: .queryPlan("SELECT id FROM todos WHERE title = 'Call Ana'"),
        named: "plan-\(engine.rawValue)",
        timeout: 60
      )
    }
  }

  func testAFailingQueryFailsWithTheDatabasesError() throws {
    for engine in Engine.allCases {
      let database = try waitFor { try await TestDatabase.make(engine) }
      let failures = capturingFailures {
        assertSnapshot(
          of: database.connection,
          as: .rows("SELECT * FROM missing_table"),
          timeout: 60
        )
      }
      let error =
        engine == .postgreSQL
        ? #"relation "missing_table" does not exist"# : "no such table: missing_table"
      XCTAssertEqual(failures.count, 1)
      XCTAssert(failures.first?.message.contains(error) == true, "\(failures)")
    }
  }
}
