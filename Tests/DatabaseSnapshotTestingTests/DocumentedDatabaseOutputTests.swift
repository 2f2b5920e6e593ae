import DatabaseSnapshotTesting
import Foundation
import TestSupport
import Testing

/// The article's outputs are what the strategies make of the tests' todo database, on both
/// databases: a changed format fails here until the article shows it.
@Suite struct DocumentedDatabaseOutputTests {
  let article = "Sources/DatabaseSnapshotTesting/Documentation.docc/DatabaseSnapshots.md"

  func text(_ engine: Engine, _ strategy: Snapshotting<SQLConnection, String>, plan: Bool = false)
    async throws -> String
  {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    if plan { try await database.fillTodos() }
    let result = await offThePool { snapshotText(database.connection, as: strategy) }
    #expect(result.failure == nil)
    return result.text
  }

  @Test func rows() async throws {
    let sql = "SELECT id, title, done, notes FROM todos ORDER BY id"
    let shown = try codeBlock(in: article, after: "runs the query and records an aligned table.")
    #expect(try await text(.postgreSQL, .rows(sql)) == shown)
  }

  @Test(arguments: [
    (Engine.postgreSQL, "definitions are PostgreSQL's own):"),
    (Engine.sqlite, "shown with its whitespace collapsed):"),
  ])
  func schema(_ engine: Engine, marker: String) async throws {
    let shown = try codeBlock(in: article, after: marker)
    #expect(try await text(engine, .schema) == shown)
  }

  @Test(arguments: [
    (Engine.postgreSQL, "PostgreSQL's `EXPLAIN (COSTS OFF)` gives"),
    (Engine.sqlite, "and SQLite's `EXPLAIN QUERY PLAN`"),
  ])
  func queryPlan(_ engine: Engine, marker: String) async throws {
    let sql = "SELECT id, title FROM todos WHERE title = 'Buy milk'"
    let shown = try codeBlock(in: article, after: marker)
    #expect(try await text(engine, .queryPlan(sql), plan: true) == shown)
  }
}
