import Foundation
import InMemoryTracing
import Logging
import Testing
import Tracing

@testable import TranscriptSnapshotTesting

/// What the capture's own spans keep, leave out and carry, beside the text tests.
@Suite struct TranscriptCaptureTests {
  init() { Bootstrap.once() }

  @Test func changesAfterTheFirstEndAreLeftOut() async {
    let transcript = await Transcript.record { capture in
      let span = capture.tracer.startSpan("checkout", context: .topLevel)
      span.attributes["step"] = 1
      #expect(span.isRecording)
      span.end()
      #expect(!span.isRecording)
      span.attributes["step"] = 2
      span.operationName = "renamed"
      span.addEvent("late")
      span.setStatus(SpanStatus(code: .error))
      span.end()
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        checkout (internal)
          step = 1
          ! ended 2 times
        """
    )
  }

  /// Setting an attribute moves the attributes out and back: reading them in the same statement
  /// still sees them, and each setting keeps the others.
  @Test func attributesSetOneByOne() async {
    let transcript = await Transcript.record { capture in
      let span = capture.tracer.startSpan("copy", context: .topLevel)
      span.attributes["b"] = 2
      span.attributes["a"] = span.attributes["b"]
      span.attributes["c"] = "\(span.attributes.get("a").map { "\($0)" } ?? "none")"
      span.attributes["b"] = nil
      span.end()
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        copy (internal)
          a = 2
          c = "int64(2)"
        """
    )
  }

  @Test func whatHappensAfterTheTranscriptWasTakenIsLeftOut() async {
    var kept: (span: TranscriptSpan, tracer: TranscriptTracer)?
    let transcript = await Transcript.record { capture in
      kept = (capture.tracer.startSpan("open", context: .topLevel), capture.tracer)
    }
    kept?.span.attributes["late"] = true
    kept?.span.end()
    kept?.tracer.startSpan("after", context: .topLevel).end()
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        open (internal)
          ! never ended
        """
    )
  }

  /// Spans hold their capture and contexts hold their spans: none of it may hold itself.
  @Test func aCaptureGoesWithItsTranscript() async {
    weak var weakCapture: TranscriptCapture?
    var transcript: Transcript? = await Transcript.record { capture in
      weakCapture = capture
      let logger = capture.logger(label: "app")
      withSpan("outer") { span in
        span.attributes["a"] = 1
        capture.tracer.withSpan("inner") { _ in logger.info("inside") }
      }
    }
    #expect(transcript != nil && weakCapture != nil)
    transcript = nil
    #expect(weakCapture == nil)
  }

  @Test func aParentOfAnotherCaptureStartsANewTree() async {
    var elsewhere: ServiceContext = .topLevel
    _ = await Transcript.record { capture in
      let span = capture.tracer.startSpan("first test", context: .topLevel)
      elsewhere = span.context
      span.end()
    }
    let transcript = await Transcript.record { capture in
      capture.tracer.startSpan("second test", context: elsewhere).end()
    }
    #expect(TranscriptTextTests.text(transcript) == "── span\nsecond test (internal)")
  }

  struct Headers: Injector, Extractor {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
      carrier[key] = value
    }
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
  }

  /// Links to `InMemoryTracer`'s spans are numbered like links to the capture's own, and
  /// contexts travel in `InMemoryTracer`'s headers both ways.
  @Test func spansOfSwiftDistributedTracingsInMemoryTracer() async {
    let inMemory = InMemoryTracer(
      idGenerator: .init(nextTraceID: { "their-trace" }, nextSpanID: { "their-span" })
    )
    let theirs = inMemory.startSpan("theirs", context: .topLevel)
    var sent: [String: String] = [:]
    var received: [String: String] = [:]
    var forwarded: [String: String] = [:]
    let transcript = await Transcript.record { capture in
      let tracer = capture.tracer
      let span = tracer.startSpan("ours", context: .topLevel)
      span.addLink(SpanLink(context: theirs.context, attributes: [:]))
      tracer.inject(span.context, into: &sent, using: Headers())
      var incoming = ServiceContext.topLevel
      inMemory.inject(theirs.context, into: &received, using: Headers())
      tracer.extract(received, into: &incoming, using: Headers())
      let remote = tracer.startSpan("remote child", context: incoming)
      remote.addLink(SpanLink(context: span.context, attributes: [:]))
      remote.addLink(SpanLink(context: theirs.context, attributes: [:]))
      tracer.inject(remote.context, into: &forwarded, using: Headers())
      remote.end()
      span.end()
    }
    #expect(sent == ["in-memory-trace-id": "trace-1", "in-memory-span-id": "span-1"])
    // The child of an extracted context stays in the sender's trace.
    #expect(forwarded == ["in-memory-trace-id": "their-trace", "in-memory-span-id": "span-2"])
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        ours (internal)
          link TRACE_ID_1 SPAN_ID_1
        ── span
        remote child (internal)
          link TRACE_ID_2 SPAN_ID_2
          link TRACE_ID_1 SPAN_ID_1
        """
    )
  }
}
