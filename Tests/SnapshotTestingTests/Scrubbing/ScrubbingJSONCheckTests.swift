import Foundation
import Testing
import TestSupport

@testable import SnapshotTesting

/// The scrubbing pass skips parsing a `.json` snapshot after the built-in identity scrubbers when
/// it can tell they kept it valid; what it reports must be what parsing would have reported.
@Suite struct ScrubbingJSONCheckTests {
  /// `.lines` recorded as `.json`, so that a test can write the JSON text itself.
  static let jsonText: Snapshotting<String, String> = {
    var strategy = Snapshotting<String, String>.lines
    strategy.pathExtension = "json"
    return strategy
  }()

  @Test func aBuiltInThatEatsAnEscapeStillFailsByName() {
    // `\b` then 35 characters: the UUID scanner matches from the escape's `b`, leaving `\U`.
    let json = #"["\bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb"]"#
    let (text, message) = recordedText(
      of: json,
      as: Self.jsonText.scrubbing(.uuids, .iso8601Dates),
      extension: "json"
    )
    #expect(text == nil)
    #expect(message?.hasPrefix(#"The scrubber "uuids" made the snapshot invalid JSON"#) == true)
  }

  @Test func anEscapedBackslashOrQuoteBeforeAnIdentityIsScrubbed() {
    let json = #"["\\8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B", "\"2024-03-01"]"#
    let (text, message) = recordedText(
      of: json,
      as: Self.jsonText.scrubbing(.uuids, .iso8601Dates),
      extension: "json"
    )
    #expect(message?.contains("invalid") == false)
    #expect(text == #"["\\UUID_1", "\"DATE_1"]"#)
  }

  @Test func theParseIsKeptForOtherScrubbersAndForUTF16Guesses() {
    let text = #"{"id": "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B"}"#
    let scrubbed = #"{"id": "UUID_1"}"#
    #expect(ScrubbingPass.identitiesKeptJSONValid(text, scrubbed, by: [.uuids]))
    #expect(
      !ScrubbingPass.identitiesKeptJSONValid(
        text, scrubbed, by: [.uuids, .replacing("x", with: "y")]))
    #expect(!ScrubbingPass.identitiesKeptJSONValid(text, scrubbed, by: [Scrubber("uuids") { $0 }]))
    #expect(!ScrubbingPass.identitiesKeptJSONValid("[\0" + text, "[\0" + scrubbed, by: [.uuids]))
    #expect(!ScrubbingPass.identitiesKeptJSONValid(#"["\\x"]"#, #"["\\UUID_1"]"#, by: [.uuids]))
  }

  /// Random JSON documents (and some that are not JSON) full of identities, escapes and
  /// near-identities: whenever the pass skips the parse, the parse agrees that the scrubbers
  /// did not break a valid document.
  @Test func skippingTheParseNeverHidesABreakage() throws {
    var random = SplitMix64(state: 0x5C2B_B1E5)
    let scrubberLists: [[Scrubber]] = [
      [.uuids], [.iso8601Dates], [.memoryAddresses], [.uuids, .iso8601Dates],
      [.iso8601Dates, .memoryAddresses, .uuids],
    ]
    var skipped = 0
    var broken = 0
    for _ in 0..<600 {
      let text = randomDocument(&random)
      for scrubbers in scrubberLists {
        var scrubbed = text
        for scrubber in scrubbers { scrubbed = try scrubber.scrub(scrubbed) }
        guard scrubbed != text else { continue }
        let breaks = !isValidJSON(scrubbed) && isValidJSON(text)
        let skips = ScrubbingPass.identitiesKeptJSONValid(text, scrubbed, by: scrubbers)
        #expect(!(skips && breaks), "\(text) → \(scrubbed)")
        if skips { skipped += 1 }
        if breaks { broken += 1 }
      }
    }
    #expect(skipped > 500, "Most documents take the shortcut.")
    #expect(broken > 10, "Some documents are broken by an eaten escape.")
  }

  private func isValidJSON(_ text: String) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil
  }

  private static let stringPieces = [
    "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B", "0a1b2c3d-0000-4000-8000-00000000abcd",
    "bbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb", "ffffff0-1234-4bbb-8bbb-bbbbbbbbbbbb",
    "2024-03-01", "2024-03-01T09:30:00.123Z", "2024-03-01 09:30:00 +0000", "0x600000c04000",
    #"\b"#, #"\f"#, #"\\"#, #"\""#, #"\n"#, #"\u00e9"#, #"\/"#, "UUID_1", "é", " ", "-", "x", "0",
  ]
  private static let barePieces = [
    "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B", "2024-03-01", "0x600000c04000", "1e-5", "-2024",
  ]

  /// A JSON value, or with a small chance something that is not JSON.
  private func randomDocument(_ random: inout SplitMix64, depth: Int = 0) -> String {
    func string() -> String {
      let count = Int(random.next() % 5)
      let pieces = (0..<count).map { _ in
        Self.stringPieces[Int(random.next() % UInt64(Self.stringPieces.count))]
      }
      return "\"" + pieces.joined() + "\""
    }
    switch random.next() % (depth < 3 ? 9 : 5) {
    case 0, 1: return string()
    case 2: return ["0", "-12.5", "1e-5", "2024", "true", "false", "null"][Int(random.next() % 7)]
    case 3:
      // Not JSON: an identity or a number outside any string.
      return random.next() % 4 == 0
        ? Self.barePieces[Int(random.next() % UInt64(Self.barePieces.count))] : string()
    case 4: return string()
    case 5, 6:
      let count = Int(random.next() % 4)
      let elements = (0..<count).map { _ in randomDocument(&random, depth: depth + 1) }
      return "[" + elements.joined(separator: ", ") + "]"
    default:
      let count = Int(random.next() % 4)
      let members = (0..<count).map { _ in
        string() + " : " + randomDocument(&random, depth: depth + 1)
      }
      return "{\n  " + members.joined(separator: ",\n  ") + "\n}"
    }
  }
}
