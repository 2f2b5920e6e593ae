import HTTPTypes
import Logging
import TestSupport
import Testing
import TranscriptSnapshotTesting
import Tracing

/// The transcripts the article shows are what `.transcript` writes for the article's test.
@Suite struct DocumentedTranscriptOutputTests {
  static let article = "Sources/TranscriptSnapshotTesting/Documentation.docc/Transcripts.md"

  /// The article's handler, with a child span when `loadsFromTheStore`.
  static func showTodo(
    id: Int,
    logger: Logger,
    tracer: some Tracer,
    loadsFromTheStore: Bool = false
  ) -> HTTPResponse {
    tracer.withSpan("GET /todos/:id", ofKind: .server) { span in
      span.attributes["http.route"] = "/todos/:id"
      if loadsFromTheStore {
        tracer.withSpan("SELECT todos", context: span.context, ofKind: .client) { query in
          query.attributes["db.rows"] = 1
          query.addEvent("cache miss")
        }
      } else {
        logger.info("Loading todo", metadata: ["id": "\(id)"])
      }
      span.setStatus(SpanStatus(code: .ok))
    }
    return HTTPResponse(status: .ok)
  }

  @Test func showsATodo() async throws {
    let shown = try codeBlock(
      in: Self.article,
      after: "the test above records (copied from a run):"
    )
    let request = HTTPRequest(
      method: .get,
      scheme: "http",
      authority: "127.0.0.1:8080",
      path: "/todos/1"
    )
    let transcript = await Transcript.record { capture in
      capture.record(request)
      let response = Self.showTodo(
        id: 1,
        logger: capture.logger(label: "todos"),
        tracer: capture.tracer
      )
      capture.record(response)
    }
    #expect(snapshotText(transcript, as: .transcript).text == shown)
  }

  @Test func aNestedSpan() async throws {
    let shown = try codeBlock(
      in: Self.article,
      after: "indented under their parent, with their own attributes and events:"
    )
    let transcript = await Transcript.record { capture in
      _ = Self.showTodo(
        id: 1,
        logger: capture.logger(label: "todos"),
        tracer: capture.tracer,
        loadsFromTheStore: true
      )
    }
    #expect(snapshotText(transcript, as: .transcript).text == shown)
  }

  /// The article's store, which logs each statement with the one line.
  struct TodoStore {
    var logger: Logger
    var execute: (String) async throws -> Void

    func run(_ sql: String) async throws {
      logger.debug("Executing query", metadata: ["sql": "\(sql)"])
      try await execute(sql)
    }
  }

  @Test func aStatementLoggedWithTheOneLine() async throws {
    let shown = try codeBlock(
      in: Self.article,
      after: "assertSnapshot(of: transcript, as: .transcript)\n}\n```\n\nrecords"
    )
    let transcript = await Transcript.record { capture in
      let store = TodoStore(logger: capture.logger(label: "todos"), execute: { _ in })
      try await store.run("DELETE FROM todos WHERE id = $1")
    }
    #expect(snapshotText(transcript, as: .transcript).text == shown)
  }
}
