import Foundation
import HTTPTypes
import Logging
import Testing
import Tracing
import XCTest

@testable import TranscriptSnapshotTesting

/// The SQL a piece of work ran: entries that log a statement as SQLKit's drivers do, and spans
/// that carry one as OpenTelemetry's attributes name it, with their bind parameters left out.
/// The drivers themselves run against real databases in `Examples/ServerTodos`
/// (`StatementTranscriptTests`).
@Suite struct TranscriptStatementTests {
  init() { Bootstrap.once() }

  /// What PostgresKit and SQLiteKit log for each statement, word for word.
  static func logLikeSQLKit(_ logger: Logger, _ sql: String, binds: [String]) {
    logger.log(
      level: .debug,
      "Executing query",
      metadata: ["sql": .string(sql), "binds": .array(binds.map { .string($0) })]
    )
  }

  @Test func statementsAreShownInOrderWithTheirBindsCounted() async {
    let transcript = await Transcript.record { capture in
      capture.record(HTTPRequest(method: .patch, scheme: nil, authority: nil, path: "/todos/7"))
      var logger = capture.logger(label: "todos")
      logger[metadataKey: "hb.request.id"] = "4f2a"
      logger.info("Completing todo")
      Self.logLikeSQLKit(
        logger, #"SELECT "id", "title" FROM "todos" WHERE "id" = $1"#, binds: ["7"])
      Self.logLikeSQLKit(
        logger,
        #"UPDATE "todos" SET "done" = $1, "secret" = $2 WHERE "id" = $3"#,
        binds: ["true", "hunter2", "7"]
      )
      Self.logLikeSQLKit(logger, "COMMIT", binds: [])
      capture.record(HTTPResponse(status: .noContent))
    }
    let text = TranscriptTextTests.text(transcript)
    #expect(
      text == """
        ── request
        PATCH /todos/7 HTTP/1.1
        ── log info todos: Completing todo
          hb.request.id: REQUEST_ID_1
        ── sql debug todos: SELECT "id", "title" FROM "todos" WHERE "id" = $1
          binds: 1 (value left out)
          hb.request.id: REQUEST_ID_1
        ── sql debug todos: UPDATE "todos" SET "done" = $1, "secret" = $2 WHERE "id" = $3
          binds: 3 (values left out)
          hb.request.id: REQUEST_ID_1
        ── sql debug todos: COMMIT
          hb.request.id: REQUEST_ID_1
        ── response
        HTTP/1.1 204 No Content
        """
    )
    #expect(!text.contains("hunter2"))
  }

  /// The level still filters; a message other than SQLKit's is kept; a multi-line statement
  /// stays on its line, escaped; a `binds` that is not a list is left out whole.
  @Test func aStatementLoggedAnotherWayKeepsWhatItSays() async {
    let transcript = await Transcript.record { capture in
      let logger = capture.logger(label: "app")
      logger.trace("Executing query", metadata: ["sql": "SELECT 1"])
      logger.warning(
        "Slow query",
        metadata: ["sql": "SELECT *\n  FROM todos", "binds": "[42]", "ms": "812"]
      )
      // Not a statement: `sql` is not a string.
      logger.info("Configured", metadata: ["sql": .stringConvertible(2)])
    }
    #expect(
      TranscriptTextTests.text(transcript, minimumLevel: .debug) == """
        ── sql warning app: SELECT *\\n  FROM todos
          binds: (values left out)
          message: Slow query
          ms: 812
        ── log info app: Configured
          sql: 2
        """
    )
    #expect(TranscriptTextTests.text(transcript).hasPrefix("── sql trace app: SELECT 1\n"))
  }

  /// A traced statement keeps `db.query.text` and loses its parameters' values.
  @Test func aTracedStatementsParametersAreLeftOut() async {
    let transcript = await Transcript.record { capture in
      capture.tracer.withSpan("SELECT todos", ofKind: .client) { span in
        span.attributes["db.system.name"] = "postgresql"
        span.attributes["db.query.text"] = "SELECT title FROM todos WHERE id = $1"
        span.attributes["db.query.parameter.0"] = "7"
        span.attributes["db.query.parameter.user"] = 1234
      }
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        SELECT todos (client)
          db.query.parameter.0 = (value left out)
          db.query.parameter.user = (value left out)
          db.query.text = "SELECT title FROM todos WHERE id = $1"
          db.system.name = "postgresql"
        """
    )
  }

  /// The strategy's reference, identities in the statement scrubbed as anywhere else.
  @Test func theStrategyWritesAReference() async {
    let transcript = await Transcript.record { capture in
      let logger = capture.logger(label: "todos")
      Self.logLikeSQLKit(
        logger,
        "SELECT * FROM todos WHERE list = 'DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF' AND id = $1",
        binds: ["3"]
      )
    }
    assertSnapshot(of: transcript, as: .transcript)
  }
}

/// The same through XCTest's entry point.
final class TranscriptStatementXCTests: XCTestCase {
  override func setUp() { Bootstrap.once() }

  func testAStatementIsShownWithItsBindsCounted() async {
    let transcript = await Transcript.record { capture in
      TranscriptStatementTests.logLikeSQLKit(
        capture.logger(label: "todos"), "DELETE FROM todos WHERE id = ?", binds: ["9"])
    }
    assertSnapshot(of: transcript, as: .transcript)
  }
}
