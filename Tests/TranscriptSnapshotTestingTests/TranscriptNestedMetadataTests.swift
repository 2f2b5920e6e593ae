import Logging
import Testing
import XCTest

@testable import TranscriptSnapshotTesting

/// A metadata value that is a dictionary is written with its keys sorted, at every depth, and an
/// array in its order; otherwise as swift-log describes it. swift-log's own description follows
/// the dictionary's order, which changes from process to process.
@Suite struct TranscriptNestedMetadataTests {
  init() { Bootstrap.once() }

  /// The letters in an order of their own: a dictionary of 26 keys, which a dictionary's order
  /// would give sorted about once in 26! runs.
  static let letters = "qwertyuiopasdfghjklzxcvbnm".map(String.init)

  /// A dictionary of 26 keys in an array in a dictionary, beside strings and numbers.
  static let nested: Logger.MetadataValue = .dictionary([
    "zone": "eu \"west\"",
    "items": .array([
      .dictionary(Dictionary(uniqueKeysWithValues: letters.map { ($0, .stringConvertible(1)) })),
      "last",
      .array([]),
      .dictionary([:]),
    ]),
    "count": .stringConvertible(2),
  ])

  static let nestedText =
    #"["count": "2", "items": [["#
    + letters.sorted().map { #""\#($0)": "1""# }.joined(separator: ", ")
    + #"], "last", [], [:]], "zone": "eu \"west\""]"#

  @Test func nestedDictionariesAreWrittenWithTheirKeysSorted() async {
    let transcript = await Transcript.record { capture in
      var logger = capture.logger(label: "app")
      logger[metadataKey: "context"] = Self.nested
      logger.info(
        "entry",
        metadata: ["entry": Self.nested, "list": ["b", "a", .stringConvertible(3)]]
      )
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── log info app: entry
          context: \(Self.nestedText)
          entry: \(Self.nestedText)
          list: ["b", "a", "3"]
        """
    )
  }

  /// Where a dictionary's order does not matter (none, or one key), the text is swift-log's.
  @Test func otherValuesAreWrittenAsSwiftLogDescribesThem() {
    let values: [Logger.MetadataValue] = [
      "plain", .stringConvertible(1.5), .array(["x", .stringConvertible(1), .array(["y"])]),
      .dictionary(["k": .array(["v", "w\n"])]), .dictionary([:]), .array([]),
      .dictionary(["only": .dictionary(["one": "key"])]),
    ]
    for value in values {
      #expect(TranscriptText.describe(value) == value.description)
    }
  }

  /// Arrays and dictionaries nested 2,000 deep: each opens and closes in order.
  @Test func deepNestingClosesInOrder() {
    var value: Logger.MetadataValue = "core"
    for level in 0..<2_000 {
      value = level.isMultiple(of: 2) ? .array([value]) : .dictionary(["k": value])
    }
    let text = TranscriptText.describe(value)
    #expect(text.hasPrefix(String(repeating: "[\"k\": [", count: 3)))
    #expect(text.hasSuffix("\"core\"" + String(repeating: "]", count: 2_000)))
  }
}

/// The same through XCTest's entry point, against a reference recorded in another run.
final class TranscriptNestedMetadataXCTests: XCTestCase {
  override func setUp() { Bootstrap.once() }

  func testNestedDictionariesAreWrittenWithTheirKeysSorted() async {
    let transcript = await Transcript.record { capture in
      capture.logger(label: "app").info(
        "entry",
        metadata: ["entry": TranscriptNestedMetadataTests.nested]
      )
    }
    assertSnapshot(of: transcript, as: .transcript)
  }
}
