import Foundation
import HTTPTypes
import Logging
import Testing
import Tracing

@testable import TranscriptSnapshotTesting

/// The transcript's text, event by event, and its options.
@Suite struct TranscriptTextTests {
  init() { Bootstrap.once() }

  static func text(
    _ transcript: Transcript,
    minimumLevel: Logger.Level = .trace,
    durationBucket: Duration? = nil,
    sourceLocations: Bool = false
  ) -> String {
    TranscriptText.render(
      transcript,
      options: TranscriptOptions(
        minimumLevel: minimumLevel,
        durationBucket: durationBucket,
        sourceLocations: sourceLocations
      )
    )
  }

  static let request = HTTPRequest(
    method: .get,
    scheme: "http",
    authority: "127.0.0.1:8080",
    path: "/todos/1"
  )

  @Test func everythingInTheOrderItHappened() async {
    let transcript = await Transcript.record { capture in
      capture.record(Self.request)
      let logger = capture.logger(label: "todos")
      withSpan("GET /todos/:id", ofKind: .server) { span in
        span.attributes["http.method"] = "GET"
        span.attributes["http.route"] = "/todos/:id"
        logger.info("Loading todo", metadata: ["user": "blob", "id": "1"])
        withSpan("SELECT todos", ofKind: .client) { query in
          query.attributes["db.rows"] = 1
          query.addEvent(SpanEvent(name: "cache miss", attributes: ["key": "todo:1"]))
          capture.recordOutgoing(
            HTTPMessage(
              HTTPRequest(method: .get, scheme: "http", authority: "cache", path: "/todos/1")
            )
          )
        }
        span.setStatus(SpanStatus(code: .ok))
      }
      capture.record(
        HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
        body: Data(#"{"title":"Write","id":1}"#.utf8)
      )
    }
    #expect(
      Self.text(transcript) == """
        ── request
        GET /todos/1 HTTP/1.1
        Host: 127.0.0.1:8080
        ── span
        GET /todos/:id (server)
          http.method = "GET"
          http.route = "/todos/:id"
          status ok
          SELECT todos (client)
            db.rows = 1
            event cache miss
              key = "todo:1"
        ── log info todos: Loading todo
          id: 1
          user: blob
        ── outgoing request
        GET /todos/1 HTTP/1.1
        Host: cache
        ── response
        HTTP/1.1 200 OK
        Content-Type: application/json

        {
          "id" : 1,
          "title" : "Write"
        }
        """
    )
  }

  @Test func levelsBelowTheMinimumAreLeftOut() async {
    let transcript = await Transcript.record { capture in
      let logger = capture.logger(label: "app")
      logger.debug("details")
      logger.warning("careful")
    }
    #expect(Self.text(transcript, minimumLevel: .info) == "── log warning app: careful")
    #expect(Self.text(transcript).contains("── log debug app: details"))
  }

  @Test func durationsRoundUpToTheBucket() async {
    let transcript = await Transcript.record { _ in
      withSpan("quick", ofKind: .internal) { _ in }
    }
    #expect(!Self.text(transcript).contains("duration"))
    #expect(
      Self.text(transcript, durationBucket: .seconds(10))
        == "── span\nquick (internal)\n  duration ≤ 10.0 seconds"
    )
  }

  @Test func sourceLocationsOnlyWhenAskedFor() async {
    let transcript = await Transcript.record { capture in
      capture.logger(label: "app").info("here")
    }
    #expect(Self.text(transcript) == "── log info app: here")
    #expect(
      Self.text(transcript, sourceLocations: true).hasPrefix(
        "── log info app: here (TranscriptSnapshotTestingTests/TranscriptTextTests.swift:"
      )
    )
  }

  @Test func linksAreNumberedByFirstAppearance() async {
    let transcript = await Transcript.record { capture in
      let first = capture.tracer.startSpan("first", context: .topLevel)
      first.end()
      let second = capture.tracer.startSpan("second", context: .topLevel)
      second.addLink(SpanLink(context: first.context, attributes: [:]))
      second.addLink(SpanLink(context: first.context, attributes: [:]))
      second.end()
    }
    #expect(
      Self.text(transcript) == """
        ── span
        first (internal)
        ── span
        second (internal)
          link TRACE_ID_1 SPAN_ID_1
          link TRACE_ID_1 SPAN_ID_1
        """
    )
  }

  @Test func aSpanRenamedBeforeItEndsShowsItsLastName() async {
    let transcript = await Transcript.record { capture in
      let span = capture.tracer.startSpan("HTTP GET route not found", context: .topLevel)
      span.operationName = "/todos/{id}"
      span.end()
    }
    #expect(Self.text(transcript) == "── span\n/todos/{id} (internal)")
  }

  @Test func requestIDsAreNumberedByFirstAppearance() async {
    let transcript = await Transcript.record { capture in
      let logger = capture.logger(label: "app")
      logger.info("start", metadata: ["hb.request.id": "8d1f3c2a9b7e4f60000000000000002a"])
      logger.info("other", metadata: ["x-request-id": "b-2", "user.id": "7"])
      logger.info("end", metadata: ["hb.request.id": "8d1f3c2a9b7e4f60000000000000002a"])
    }
    #expect(
      Self.text(transcript) == """
        ── log info app: start
          hb.request.id: REQUEST_ID_1
        ── log info app: other
          user.id: 7
          x-request-id: REQUEST_ID_2
        ── log info app: end
          hb.request.id: REQUEST_ID_1
        """
    )
    #expect(!TranscriptText.namesARequestID("request.idle"))
    #expect(TranscriptText.namesARequestID("requestID"))
    #expect(TranscriptText.namesARequestID("X-REQUEST-ID"))
    #expect(!TranscriptText.namesARequestID("id"))
    // Compared by ASCII case folding, as `lowercased()` compared: İ lowercases to i and a dot.
    #expect(!TranscriptText.namesARequestID("request.\u{130}d"))
  }

  struct Refused: Error {}

  /// The entry's metadata wins over the logger's, and the entry's error over both.
  @Test func metadataOfTheEntryOverTheLoggers() async {
    let transcript = await Transcript.record { capture in
      var logger = capture.logger(label: "app")
      logger[metadataKey: "user"] = "logger"
      logger[metadataKey: "error"] = "logger"
      logger[metadataKey: "zone"] = "eu"
      logger.info("failed", error: Refused(), metadata: ["user": "entry", "error": "entry"])
      logger.info("plain", metadata: ["user": "entry"])
    }
    #expect(
      Self.text(transcript) == """
        ── log info app: failed
          error: Refused()
          user: entry
          zone: eu
        ── log info app: plain
          error: logger
          user: entry
          zone: eu
        """
    )
  }

  @Test func theStrategyWritesAReference() async {
    let transcript = await Transcript.record { capture in
      capture.record(Self.request)
      capture.logger(label: "app").info(
        "created",
        metadata: ["id": "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF"]
      )
      capture.record(HTTPResponse(status: .created))
    }
    assertSnapshot(of: transcript, as: .transcript)
  }
}
