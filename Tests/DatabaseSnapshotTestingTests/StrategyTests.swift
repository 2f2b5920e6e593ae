import DatabaseSnapshotTesting
import Foundation
import TestSupport
import Testing

/// The three strategies against a real PostgreSQL and a real SQLite, through Swift Testing.
@Suite struct StrategyTests {
  @Test(arguments: Engine.allCases)
  func rowsMatchTheirReference(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    await assertSnapshotAsync(
      of: database.connection,
      as: .rows("SELECT id, title, done, notes FROM todos ORDER BY id"),
      named: engine.rawValue,
      timeout: 60
    )
  }

  @Test(arguments: Engine.allCases)
  func schemaMatchesItsReference(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    await assertSnapshotAsync(
      of: database.connection,
      as: .schema,
      named: engine.rawValue,
      timeout: 60
    )
  }

  @Test(arguments: Engine.allCases)
  func queryPlanMatchesItsReference(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    try await database.fillTodos()
    await assertSnapshotAsync(
      of: database.connection,
      as: .queryPlan("SELECT id, title FROM todos WHERE title = 'Buy milk'"),
      named: engine.rawValue,
      timeout: 60
    )
  }
}
