import Logging
import Testing
import Tracing
import XCTest

@testable import TranscriptSnapshotTesting

/// Parallel work through the process-wide logger and tracer: each transcript holds its own.
@Suite struct TranscriptIsolationTests {
  init() { Bootstrap.once() }

  static func work(_ index: Int) async -> String {
    let transcript = await Transcript.record { _ in
      let logger = Logger(label: "worker")
      for step in 0..<20 {
        await withSpan("job \(index)") { span in
          span.attributes["step"] = step
          logger.info("job \(index) step \(step)")
          await Task.yield()
        }
      }
    }
    return TranscriptTextTests.text(transcript)
  }

  static func check(_ text: String, _ index: Int) -> Bool {
    let lines = text.split(separator: "\n")
    return lines.count == 20 * 4
      && lines.allSatisfy { !$0.contains("job") || $0.contains("job \(index) ") }
  }

  @Test(arguments: 0..<16) func parallelTestsSeeOnlyTheirOwn(index: Int) async {
    #expect(Self.check(await Self.work(index), index))
  }

  @Test func concurrentCapturesInOneTest() async {
    await withTaskGroup(of: (Int, String).self) { group in
      for index in 0..<32 { group.addTask { (index, await Self.work(index)) } }
      for await (index, text) in group { #expect(Self.check(text, index), "\(index)") }
    }
  }

  /// `Transcript.bootstrap()`'s default fallback is swift-log's no-op handler, which drops the
  /// metadata a logger is given; the capture must still see it.
  @Test func aBootstrappedLoggersMetadataSurvivesAFallbackThatDropsIt() async {
    var logger = Logger(label: "routed") { label in
      RoutingLogHandler(label: label, fallback: SwiftLogNoOpLogHandler())
    }
    logger[metadataKey: "hb.request.id"] = "abc"
    logger.handler.metadata["user"] = "blob"
    let transcript = await Transcript.record { _ in
      logger.info("handled", metadata: ["route": "/todos"])
    }
    #expect(logger[metadataKey: "user"] == "blob")
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── log info routed: handled
          hb.request.id: REQUEST_ID_1
          route: /todos
          user: blob
        """)
  }

  @Test func entriesOutsideACaptureGoToTheFallbackHandler() async {
    Logger(label: "outside").info("nobody's \(#function)")
    #expect(
      Bootstrap.outside.entries.contains { $0.message.description == "nobody's \(#function)" })
  }
}

final class TranscriptIsolationXCTests: XCTestCase {
  override func setUp() { Bootstrap.once() }

  func testConcurrentCaptures() async {
    await withTaskGroup(of: (Int, String).self) { group in
      for index in 100..<116 {
        group.addTask { (index, await TranscriptIsolationTests.work(index)) }
      }
      for await (index, text) in group {
        XCTAssertTrue(TranscriptIsolationTests.check(text, index), text)
      }
    }
  }
}

/// Work handed on through a `ServiceContext` alone (no task-local value) still reaches the
/// capture that made the context.
@Suite struct TranscriptServiceContextTests {
  init() { Bootstrap.once() }

  @Test func aDetachedTaskWithTheContextLogsAndTracesIntoTheCapture() async {
    let transcript = await Transcript.record { capture in
      let parent = capture.tracer.startSpan("request", context: .topLevel)
      let context = parent.context
      await Task.detached {
        ServiceContext.withValue(context) {
          Logger(label: "detached").info("through the context")
        }
        InstrumentationSystem.tracer.startSpan("detached work", context: context).end()
      }.value
      parent.end()
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        request (internal)
          detached work (internal)
        ── log info detached: through the context
        """)
  }

  /// A logger's level is asked before its entry is made: below the fallback's level (here
  /// `.info`, and `.critical` for swift-log's no-op handler, the default), an entry on a task that
  /// carries only the capture's context must still count as inside the capture.
  @Test func entriesBelowTheFallbacksLevelOnADetachedTaskReachTheCapture() async {
    let transcript = await Transcript.record { capture in
      let parent = capture.tracer.startSpan("request", context: .topLevel)
      let context = parent.context
      await Task.detached {
        ServiceContext.withValue(context) {
          Logger(label: "bootstrapped").debug("below the fallback's level")
          let noOpFallback = Logger(label: "no-op fallback") { label in
            RoutingLogHandler(label: label, fallback: SwiftLogNoOpLogHandler())
          }
          noOpFallback.trace("below critical")
        }
      }.value
      parent.end()
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        request (internal)
        ── log debug bootstrapped: below the fallback's level
        ── log trace no-op fallback: below critical
        """)
  }
}
