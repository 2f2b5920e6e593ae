import Foundation
import HTTPTypes
import Logging
import SnapshotTesting
import TestSupport
import Testing
import Tracing

@testable import TranscriptSnapshotTesting

/// `.transcript` reads only the values that may hold a UUID or a date; its text must be what
/// `.scrubbing(.uuids, .iso8601Dates)` makes of the whole text, numbering included.
@Suite struct TranscriptScrubbingTests {
  init() { Bootstrap.once() }

  static let id = "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B"
  static let other = "0c1d2e3f-4a5b-4e6f-8a9b-8f3c2a1e4b5d"

  struct Failure: Error { var id: String }

  /// Identities in every place a value goes, beside each of the transcript's own words.
  static func identitiesEverywhere(body: String) async -> Transcript {
    await Transcript.record { capture in
      capture.record(
        HTTPRequest(method: .get, scheme: "http", authority: "shop", path: "/orders/\(id)")
      )
      capture.logger(label: "app \(id)").info(
        "created \(other) at 2024-03-01T09:30:00Z",
        metadata: [
          "id": "\(id.lowercased())", "\(other)": "key", "day": "2024-03-01",
          "at": "2024-03-01 09:30:00 +0000", "sku": "SKU-1000", "hex": "abcd-", "glued": "x\(id)",
          "digit": "2024-03-015", "x-request-id": "\(id)",
        ]
      )
      withSpan("job 2024-03-01", ofKind: .server) { span in
        span.attributes["order"] = "\(id)"
        span.attributes["2024-03-02"] = 1
        span.attributes["ids"] = [id, other]
        span.addEvent(SpanEvent(name: "retry \(other)", attributes: ["at": "2024-03-01T09:30"]))
        span.recordError(Failure(id: other))
        span.setStatus(SpanStatus(code: .error, message: "gave up at 2024-03-03"))
      }
      capture.record(
        HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]),
        body: Data(body.utf8)
      )
      throw Failure(id: id)
    }
  }

  static func wholeTextScrubbed(_ transcript: Transcript) -> String {
    snapshotText(
      TranscriptTextTests.text(transcript),
      as: SimplySnapshotting<String>.lines.scrubbing(.uuids, .iso8601Dates)
    ).text
  }

  /// A label repeated by entry after entry is written once and copied after, still noted where
  /// it may hold an identity: the text is that of scrubbing the whole text, and each header
  /// holds the label escaped.
  @Test func repeatedLabelsAreScrubbedAndEscapedAsTheFirst() async {
    let labels = [
      "app", "app", "job \(Self.id)", "job \(Self.id)", "tab\there", "tab\there", "app",
      "job \(Self.other)", "job \(Self.id)",
    ]
    let transcript = await Transcript.record { capture in
      for label in labels { capture.logger(label: label).info("entry") }
    }
    let text = snapshotText(transcript, as: .transcript).text
    #expect(text == Self.wholeTextScrubbed(transcript))
    #expect(
      TranscriptTextTests.text(transcript)
        == labels.map { "── log info \(TranscriptText.escaped($0)): entry" }.joined(separator: "\n")
    )
    #expect(text.components(separatedBy: "job UUID_1:").count == 4)
  }

  /// A label equal to the one before only as Swift compares strings (a precomposed `é` and `e`
  /// with a combining accent) keeps its own bytes: the label is copied only when its bytes match.
  @Test func aLabelEqualToTheLastOnlyByCanonicalEquivalenceKeepsItsBytes() async {
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(precomposed == decomposed)
    let transcript = await Transcript.record { capture in
      capture.logger(label: precomposed).info("entry")
      capture.logger(label: decomposed).info("entry")
    }
    let text = TranscriptTextTests.text(transcript)
    #expect(
      Array(text.utf8)
        == Array("── log info \(precomposed): entry\n── log info \(decomposed): entry".utf8)
    )
  }

  @Test func theSameTextAsScrubbingTheWholeText() async {
    // The printed body is scrubbed line by line: identities at a line's ends, and a date whose
    // time would be on the next line.
    let body = """
      order \(Self.id) on 2024-03-04
      plain line
      at 2024-03-05 09:30 +0100
      2024-03-06
      09:30 \(Self.other)
      """
    let transcript = await Self.identitiesEverywhere(body: body)
    let text = snapshotText(transcript, as: .transcript).text
    #expect(text == Self.wholeTextScrubbed(transcript))
    #expect(!text.contains(Self.other))
    #expect(text.components(separatedBy: Self.id).count == 2, "only the glued one is left")
    for line in [
      "GET /orders/UUID_1 HTTP/1.1", "── log info app UUID_1: created UUID_2 at DATE_1",
      "  id: UUID_1", "  UUID_2: key", "  at: DATE_2", "  sku: SKU-1000", "  glued: x\(Self.id)",
      "  digit: 2024-03-015", "  x-request-id: REQUEST_ID_1", "job DATE_3 (server)",
      "  DATE_4 = 1", "  ids = [\"UUID_1\", \"UUID_2\"]", "  error Failure(id: \"UUID_2\")",
      "  status error: gave up at DATE_6", "order UUID_1 on DATE_7", "at DATE_8", "DATE_9",
      "09:30 UUID_2", "Failure(id: \"UUID_1\")",
    ] {
      #expect(text.components(separatedBy: "\n").contains(line), "\(line)")
    }
  }

  /// The values are joined without validating them again (see
  /// `String(copyingValidUTF8:)`) and the scrubbed ones written back at the NULs
  /// `memchr` finds: with characters of two to four bytes right beside identities in a label, a
  /// message, metadata, attributes, an event and a body, the text is that of scrubbing the whole
  /// text, and its bytes read back as the same text.
  @Test func multiByteCharactersBesideIdentitiesAreWrittenBackWhole() async {
    let transcript = await Transcript.record { capture in
      capture.logger(label: "café \(Self.id)é").info(
        "Zoë→\(Self.other)🦊 à 2024-03-01T09:30:00Z✓",
        metadata: ["clé \(Self.id)": "🦊\(Self.other)", "jour": "ü2024-03-01ß"]
      )
      withSpan("étape \(Self.id)", ofKind: .internal) { span in
        span.attributes["ids"] = ["é\(Self.id)", "\(Self.other)🦊"]
        span.addEvent(SpanEvent(name: "→ \(Self.other)", attributes: ["à": "2024-03-02"]))
      }
      capture.record(
        HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]),
        body: Data("ordre \(Self.id)é\n🦊 2024-03-04 ✓\n".utf8)
      )
    }
    let text = snapshotText(transcript, as: .transcript).text
    #expect(text == Self.wholeTextScrubbed(transcript))
    #expect(text.contains("── log info café UUID_1é: Zoë→UUID_2🦊 à DATE_1✓"))
    #expect(text.contains("ordre UUID_1é\n🦊 DATE_"))
    #expect(!text.contains(Self.id) && !text.contains(Self.other))
    let bytes = Array(text.utf8)
    #expect(String(validating: bytes, as: UTF8.self) == text)
    #expect(String(decoding: bytes, as: UTF8.self) == text)
  }

  /// A source location is scrubbed with its line: a file ending in an hour reads on into it.
  @Test func aSourceLocationIsScrubbedWithItsLine() async {
    let transcript = await Transcript.record { capture in
      capture.logger(label: "app").info("saved", file: "Logs/2024-03-01T10", line: 30)
    }
    let text = snapshotText(transcript, as: .transcript(sourceLocations: true)).text
    #expect(
      text
        == snapshotText(
          TranscriptTextTests.text(transcript, sourceLocations: true),
          as: SimplySnapshotting<String>.lines.scrubbing(.uuids, .iso8601Dates)
        ).text
    )
    #expect(text == "── log info app: saved (Logs/DATE_1)")
  }

  /// A value holding a NUL of its own cannot be joined with NUL: the whole text is scrubbed.
  @Test func aValueWithANulIsScrubbedWithTheWholeText() async {
    let transcript = await Self.identitiesEverywhere(body: "a\u{0}b \(Self.other) 2024-03-04")
    let text = snapshotText(transcript, as: .transcript).text
    #expect(text == Self.wholeTextScrubbed(transcript))
    #expect(text.contains("a\u{0}b UUID_2 DATE_7"))
  }

  /// Scoped scrubbers run first, on the whole text, as for every strategy: a token replaced there
  /// takes no number.
  @Test func scrubbersInScopeRunFirst() async throws {
    let transcript = await Transcript.record { capture in
      capture.logger(label: "app").info("token \(Self.id), order \(Self.other)")
    }
    try withTemporaryFolder { folder in
      withSnapshotTesting(scrubbing: [.replacing(Self.id, with: "<token>")]) {
        _ = verifySnapshot(
          of: transcript,
          as: .transcript,
          named: "scoped",
          record: .all,
          snapshotDirectory: folder.path
        )
      }
      let written = try files(under: folder).map {
        try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
      }
      #expect(written == ["── log info app: token <token>, order UUID_1"])
    }
  }

  @Test func aTextItDidNotRenderIsScrubbedWhole() throws {
    let scrubber = TranscriptIdentities().scrubber
    #expect(try scrubber.scrub("\(Self.id) 2024-01-02 \(Self.id)") == "UUID_1 DATE_1 UUID_1")
  }

  @Test func whatMayHoldAnIdentity() {
    for value in [Self.id, "2024-03-01", "x1234-", "abcd-"] {
      #expect(TranscriptIdentities.mayHoldIdentity(value), "\(value)")
    }
    for value in ["SKU-1000", "abc-1234", "1-2-3-4", "", "12:30", "2024/03/01"] {
      #expect(!TranscriptIdentities.mayHoldIdentity(value), "\(value)")
    }
  }
}
