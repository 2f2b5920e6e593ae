import Foundation
import Logging
import Testing
import Tracing

@testable import TranscriptSnapshotTesting

/// Input a server may well produce: each gets a clear line, never a crash.
@Suite struct TranscriptBadInputTests {
  init() { Bootstrap.once() }

  @Test func controlCharactersAndInvalidUTF8StayOnOneLine() async {
    let invalid = String(decoding: [0x61, 0xFF, 0xFE, 0x62] as [UInt8], as: UTF8.self)
    let transcript = await Transcript.record { capture in
      capture.logger(label: "app").error(
        "line\nbreak\u{1B}[31m\u{0}", metadata: ["bytes": "\(invalid)", "tab": "a\tb"])
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── log error app: line\\nbreak\\u{1B}[31m\\u{0}
          bytes: a\u{FFFD}\u{FFFD}b
          tab: a\\tb
        """)
  }

  /// Plain values skip the escaping loop; these must still take it, or must not change.
  @Test func escapingDecidesByCharacterNotByByte() {
    #expect(TranscriptText.escaped("plain ©°é 文件") == "plain ©°é 文件")
    #expect(
      TranscriptText.escaped("del\u{7F} nel\u{85} csi\u{9B}") == #"del\u{7F} nel\u{85} csi\u{9B}"#)
    #expect(TranscriptText.escaped("\u{A0}\u{9F}") == "\u{A0}\\u{9F}")
    let longest = String(repeating: "x", count: TranscriptOptions.maximumValueLength)
    #expect(TranscriptText.escaped(longest) == longest)
    #expect(TranscriptText.escaped(longest + "y") == longest + "… (1 more characters)")
    // Under the limit in characters, over it in bytes: cut by characters, never by bytes.
    let wide = String(repeating: "é", count: TranscriptOptions.maximumValueLength)
    #expect(TranscriptText.escaped(wide) == wide)
  }

  @Test func aMegabyteMessageIsCutWithANote() async {
    let transcript = await Transcript.record { capture in
      capture.logger(label: "app").info("\(String(repeating: "x", count: 1_000_000))")
    }
    let text = TranscriptTextTests.text(transcript)
    #expect(text.hasSuffix("x… (995904 more characters)"))
    #expect(text.utf8.count < 5_000)
  }

  @Test func aSpanNeverEndedOrEndedTwiceSaysSo() async {
    let transcript = await Transcript.record { capture in
      _ = capture.tracer.startSpan("forgotten", context: .topLevel)
      let twice = capture.tracer.startSpan("twice", context: .topLevel)
      twice.end()
      twice.end()
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── span
        forgotten (internal)
          ! never ended
        ── span
        twice (internal)
          ! ended 2 times
        """)
  }

  @Test func aHundredThousandEntries() async {
    let transcript = await Transcript.record { capture in
      let logger = capture.logger(label: "app")
      for index in 0..<100_000 { logger.trace("entry \(index)") }
    }
    let lines = TranscriptTextTests.text(transcript).split(separator: "\n")
    #expect(lines.count == 100_000)
    // Every entry in its place: the capture fills blocks of 64, 128 … 4,096 events, and the
    // text reads them in order across each block's end.
    let misplaced = lines.indices.first { lines[$0] != "── log trace app: entry \($0)" }
    #expect(misplaced == nil, "line \(misplaced ?? 0): \(misplaced.map { lines[$0] } ?? "")")
  }

  struct Refused: Error {}

  @Test func workThatThrowsEndsWithTheError() async {
    let transcript = await Transcript.record { capture in
      capture.logger(label: "app").info("before")
      try withSpan("failing") { _ in throw Refused() }
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── log info app: before
        ── span
        failing (internal)
          error Refused()
          status error
        ── error
        Refused()
        """)
  }

  @Test func entriesAfterTheSnapshotNeverReachTheNextTranscript() async throws {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let (done, finished) = AsyncStream<Void>.makeStream()
    let first = await Transcript.record { _ in
      let logger = Logger(label: "late")
      Task {
        for await _ in stream {}
        logger.info("too late")
        finished.yield()
        finished.finish()
      }
      logger.info("in time")
    }
    let second = await Transcript.record { _ in
      continuation.finish()
      for await _ in done {}
      Logger(label: "next").info("mine")
    }
    #expect(TranscriptTextTests.text(first) == "── log info late: in time")
    #expect(TranscriptTextTests.text(second) == "── log info next: mine")
  }
}
