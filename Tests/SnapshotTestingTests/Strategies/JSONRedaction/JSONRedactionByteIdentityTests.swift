import Foundation
import Testing

@testable import SnapshotTesting

/// The redacted text equals `.json`'s text except at the redacted values: line by line, a line
/// either is the same bytes or is the same up to the value, which is the placeholder.
@Suite struct JSONRedactionByteIdentityTests {
  struct Item: Encodable {
    var id: Int64
    var createdAt: Date
    var path: String
    var price: Double
  }

  struct Corpus: Encodable {
    var id = UInt64.max
    var smallest = Int64.min
    var name = "Blob \"the\" Ünïcødé 日本語 🎉 \\ / \n\t\u{1}\u{7F}"
    var url = URL(string: "https://example.com/a/b?c=d&e=f")!
    var doubles: [Double] = [
      0.1, 1 / 3, -0.0, 1e300, 2.5e-3, 9007199254740992, .leastNonzeroMagnitude, 1e-7,
    ]
    var floats: [Float] = [0.1, 3.4028235e38]
    var flags = [true, false]
    var missing: Int? = nil
    var empty: [String] = []
    var emptyObject: [String: Int] = [:]
    var items = [
      Item(
        id: 1,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000.5),
        path: "/x/y",
        price: 9.99
      ),
      Item(id: 2, createdAt: Date(timeIntervalSinceReferenceDate: 0), path: "é/ü", price: 1e21),
    ]
    var meta = ["requestID": "7F/3A", "clé/slash": "v"]
    var nested = ["a": ["b": ["c": [1.5, 2]]]]
  }

  static let selectors = [
    "id", "smallest", "name", "url", "doubles[*]", "floats[1]", "flags[0]", "items[*].createdAt",
    "items[1].path", "**.price", "meta.requestID", "meta.clé/slash", "nested.a.b.c[0]",
  ]

  static let encoders: [(name: String, make: @Sendable () -> JSONEncoder)] = [
    ("default", { JSONEncoder() }),
    ("iso8601", { JSONEncoder(dateEncodingStrategy: .iso8601) }),
    ("secondsSince1970", { JSONEncoder(dateEncodingStrategy: .secondsSince1970) }),
    ("withoutEscapingSlashes", { JSONEncoder(outputFormatting: .withoutEscapingSlashes) }),
  ]

  func text<Value>(_ value: Value, _ strategy: Snapshotting<Value, String>) -> (String, String?) {
    UnavailableSnapshot.collecting {
      var text = ""
      strategy.snapshot(value).run { text = $0 }
      return text
    }
  }

  @Test(arguments: encoders.map(\.name))
  func encodableOutsideRedactionsIsByteIdentical(_ encoderName: String) throws {
    let encoder = try #require(Self.encoders.first { $0.name == encoderName }).make()
    encoder.outputFormatting.formUnion([.prettyPrinted, .sortedKeys])
    let (plain, plainReason) = text(Corpus(), .json(encoder))
    let (redacted, reason) = text(Corpus(), .json(encoder, redacting: Self.selectors))
    #expect(plainReason == nil)
    #expect(reason == nil)
    // 1 + 1 + 1 + 1 + 8 doubles + 1 + 1 + 2 dates + 1 + 2 prices + 1 + 1 + 1.
    try expectOnlyValuesDiffer(plain, redacted, count: 22)
    // With no selector, the whole text is `.json`'s.
    #expect(text(Corpus(), .json(encoder, redacting: [])).0 == plain)
  }

  @Test func theDefaultStrategyIsJSONsEncoder() throws {
    let (plain, _) = text(Corpus(), .json)
    let (redacted, reason) = text(Corpus(), .json(redacting: Self.selectors))
    #expect(reason == nil)
    try expectOnlyValuesDiffer(plain, redacted, count: 22)
    #expect(text(Corpus(), .json(redacting: [])).0 == plain)
  }

  @Test func foundationObjectsOutsideRedactionsAreByteIdentical() throws {
    let source =
      #"{"b":[1,{"d":null,"c":"é/\"x\""}],"a":0.5,"big":12345678901234567890,"#
      + #""t":true,"list":[[1e-7,-0.0,3.14159],[]],"o":{}}"#
    let object = try JSONSerialization.jsonObject(with: Data(source.utf8))
    let (plain, _) = text(object, Snapshotting<Any, String>.json)
    let selectors = ["b[1].d", "b[1].c", "a", "big", "t", "list[0][*]", "**.zzz.a"]
    let (redacted, reason) = text(object, Snapshotting<Any, String>.json(redacting: selectors))
    #expect(reason == #"The redaction selector "**.zzz.a" matched nothing in the JSON."#)
    let (kept, keptReason) = text(
      object,
      Snapshotting<Any, String>.json(redacting: Array(selectors.dropLast()))
    )
    #expect(keptReason == nil)
    #expect(redacted == reason)
    try expectOnlyValuesDiffer(plain, kept, count: 8)
    #expect(text(object, Snapshotting<Any, String>.json(redacting: [])).0 == plain)
  }

  /// Same line count; each differing line keeps the original's bytes up to the value and its
  /// trailing comma, and the redacted text is still JSON.
  func expectOnlyValuesDiffer(_ plain: String, _ redacted: String, count: Int) throws {
    let plainLines = plain.split(separator: "\n", omittingEmptySubsequences: false)
    let redactedLines = redacted.split(separator: "\n", omittingEmptySubsequences: false)
    try #require(plainLines.count == redactedLines.count)
    var differing = 0
    for (original, line) in zip(plainLines, redactedLines) where original != line {
      differing += 1
      let placeholder = try #require(line.range(of: #""[redacted "#), "\(line)")
      let prefix = line[..<placeholder.lowerBound]
      #expect(original.hasPrefix(prefix), "\(original) / \(line)")
      #expect(original.hasSuffix(",") == line.hasSuffix(","), "\(original) / \(line)")
      let value = line[placeholder.lowerBound...].trimmingCharacters(in: [","])
      #expect(value.hasPrefix(#""[redacted "#) && value.hasSuffix(#"]""#), "\(line)")
    }
    #expect(differing == count)
    #expect((try? JSONSerialization.jsonObject(with: Data(redacted.utf8))) != nil)
  }
}

extension JSONEncoder {
  fileprivate convenience init(
    dateEncodingStrategy: DateEncodingStrategy = .deferredToDate,
    outputFormatting: OutputFormatting = []
  ) {
    self.init()
    self.dateEncodingStrategy = dateEncodingStrategy
    self.outputFormatting = outputFormatting
  }
}
