import Testing
import Tracing

@testable import TranscriptSnapshotTesting

/// Spans nested a million deep (a runaway recursion in the work under test) are captured,
/// printed and freed without recursion: the text keeps the first
/// ``TranscriptText/maximumSpanDepth`` levels and counts the rest in one line. In a debug build
/// this takes seconds and a few hundred megabytes; before, printing (one call a level) and
/// freeing (each span held its parent) overflowed the stack and killed the test process.
@Suite struct TranscriptDeepNestingTests {
  static let depth = 1_000_000

  /// A chain of spans, each the child of the one before, each ended once its child started.
  static func chain(_ depth: Int) async -> Transcript {
    await Transcript.record { capture in
      var context = ServiceContext.topLevel
      var previous: TranscriptSpan?
      for _ in 0..<depth {
        let span = capture.tracer.startSpan("level", context: context)
        context = span.context
        previous?.end()
        previous = span
      }
      previous?.end()
    }
  }

  @Test func aMillionNestedSpansArePrintedToTheLimitAndCounted() async {
    let limit = TranscriptText.maximumSpanDepth
    var transcript: Transcript? = await Self.chain(Self.depth)
    let text = TranscriptTextTests.text(transcript!)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 1 + (limit + 1) + 1)
    #expect(lines.first == "── span")
    #expect(lines[1] == "level (internal)")
    #expect(lines[limit + 1] == String(repeating: "  ", count: limit) + "level (internal)")
    let note =
      String(repeating: "  ", count: limit + 1)
      + "! \(Self.depth - limit - 1) spans nested deeper than \(limit) levels left out"
    #expect(String(lines[lines.count - 1]) == note)
    // Freed here, a span at a time.
    transcript = nil
  }

  /// At the limit, nothing is left out.
  @Test func spansAtTheLimitArePrintedWhole() async {
    let limit = TranscriptText.maximumSpanDepth
    let text = TranscriptTextTests.text(await Self.chain(limit + 1))
    let lines = text.split(separator: "\n")
    #expect(lines.count == 1 + limit + 1)
    #expect(!text.contains("left out"))
  }
}
