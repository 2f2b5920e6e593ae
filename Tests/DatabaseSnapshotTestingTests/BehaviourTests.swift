import DatabaseSnapshotTesting
import Foundation
import TestSupport
import Synchronization
import Testing

/// What the strategies' text holds, and what they leave alone.
@Suite struct BehaviourTests {
  @Test(arguments: Engine.allCases)
  func theSameSchemaFromAnotherMigrationOrderGivesTheSameText(_ engine: Engine) async throws {
    let first = try await TestDatabase.make(engine)
    try await first.makeTodos()
    let second = try await TestDatabase.make(engine)
    try await second.execute(
      "CREATE TABLE todos (id integer PRIMARY KEY, title text NOT NULL CHECK (length(title) > 0))",
      "CREATE INDEX todos_title_idx ON todos (title)",
      "CREATE TABLE lists (id integer PRIMARY KEY, name text NOT NULL UNIQUE)",
      "ALTER TABLE todos ADD COLUMN notes text",
      "ALTER TABLE todos ADD COLUMN done boolean NOT NULL DEFAULT false",
      "CREATE VIEW open_todos AS SELECT id, title FROM todos WHERE NOT done"
    )
    // SQLite adds a foreign key only with its table; PostgreSQL can add it later.
    switch engine {
    case .postgreSQL:
      try await second.execute(
        "ALTER TABLE todos ADD COLUMN list_id integer NOT NULL",
        "ALTER TABLE todos ADD CONSTRAINT todos_list_id_fkey FOREIGN KEY (list_id) REFERENCES lists (id) ON DELETE CASCADE"
      )
    case .sqlite:
      try await second.execute(
        "ALTER TABLE todos ADD COLUMN list_id integer NOT NULL DEFAULT 0 REFERENCES lists (id) ON DELETE CASCADE"
      )
    }
    let one = await text(first.connection, as: .schema)
    let other = await text(second.connection, as: .schema)
    #expect(one.failure == nil && other.failure == nil)
    if engine == .postgreSQL {
      #expect(one.text == other.text)
    } else {
      // SQLite: the later column needed a default to be added; nothing else differs.
      #expect(
        one.text
          == other.text.replacingOccurrences(
            of: "list_id INTEGER NOT NULL DEFAULT 0",
            with: "list_id INTEGER NOT NULL"
          )
      )
    }
  }

  @Test(arguments: Engine.allCases)
  func theStrategiesOnlyRead(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    let statements = StatementLog()
    let spied = SQLConnection(dialect: nil, server: database.connection.server) { sql in
      statements.append(sql)
      return try await database.connection.run(sql)
    }
    _ = await text(spied, as: .schema)
    _ = await text(
      spied,
      as: .queryPlan("INSERT INTO todos (id, list_id, title) VALUES (99, 1, 'x')")
    )
    _ = await text(spied, as: .rows("SELECT count(*) FROM todos"))
    for sql in statements.all {
      let first = sql.split(whereSeparator: \.isWhitespace).first?.uppercased()
      #expect(["SELECT", "WITH", "EXPLAIN"].contains(first), "\(sql)")
    }
    let count = try await database.connection.run("SELECT count(*) FROM todos")
    #expect(count.rows == [["4"]])
  }

  @Test(arguments: Engine.allCases)
  func theDialectIsDetected(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    try await database.makeTodos()
    let detected = await text(database.connection, as: .schema).text
    var named = database.connection
    named.dialect = engine == .postgreSQL ? .postgreSQL : .sqlite
    let namedText = await text(named, as: .schema).text
    #expect(detected == namedText)
    #expect(detected.contains("TABLE") && detected.contains("todos"))
  }

  @Test func binaryValuesAreShownAsSizeAndDigest() async throws {
    let database = try await TestDatabase.make(.sqlite)
    let shown = await text(
      database.connection,
      as: .rows("SELECT X'00010203' AS bytes, X'' AS empty")
    ).text
    #expect(
      shown.contains(
        "<4 bytes, SHA-256 054edec1d0211f624fed0cbca9d4f9400b0e491c43742af2c5b0abebf0c990d8>"
      )
    )
    #expect(
      shown.contains(
        "<0 bytes, SHA-256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855>"
      )
    )
  }

  @Test(arguments: Engine.allCases)
  func volatileValuesAreScrubbed(_ engine: Engine) async throws {
    let database = try await TestDatabase.make(engine)
    let sql =
      engine == .postgreSQL
      ? "SELECT gen_random_uuid()::text AS id, now()::timestamptz AS at"
      : "SELECT lower(hex(randomblob(4))) || '-0000-4000-8000-000000000000' || '' AS id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at"
    let shown = await text(database.connection, as: .rows(sql).scrubbing(.uuids, .iso8601Dates))
      .text
    #expect(shown.contains("UUID_1"), "\(shown)")
    #expect(shown.contains("DATE_1"), "\(shown)")
  }

  @Test func valuesThatCouldBeMistakenAreQuoted() async throws {
    let database = try await TestDatabase.make(.sqlite)
    let shown = await text(
      database.connection,
      as: .rows(
        "SELECT NULL AS a, 'NULL' AS b, '' AS c, ' x' AS d, 'tab' || char(9) AS e, '\"q' AS f"
      )
    ).text
    let lines = shown.split(separator: "\n")
    try #require(lines.count > 2, "\(shown)")
    #expect(lines[2] == #"NULL | "NULL" | "" | " x" | "tab\t" | "\"q""#, "\(shown)")
  }
}

/// The text a strategy makes of a connection, and the reason it reported if it could not.
private func text(_ connection: SQLConnection, as strategy: Snapshotting<SQLConnection, String>)
  async -> (text: String, failure: String?)
{
  await offThePool { snapshotText(connection, as: strategy) }
}

/// The statements a connection was asked to run, in order.
final class StatementLog: Sendable {
  private let statements = Mutex<[String]>([])
  func append(_ sql: String) { statements.withLock { $0.append(sql) } }
  var all: [String] { statements.withLock { $0 } }
}
