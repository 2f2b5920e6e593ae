import Foundation
import HTTPTypes
import Logging
import TestSupport
import Testing

@testable import TranscriptSnapshotTesting

/// The text is written the fast way (metadata merged without dictionary lookups, identities
/// looked for at each `-` only); these tests hold each to the plain rule it stands for.
@Suite struct TranscriptTextEquivalenceTests {
  init() { Bootstrap.once() }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Entries with random metadata of their own over random logger metadata (shared keys, keys
  /// equal but for Unicode normalisation, `error` with and without an error): each entry's lines
  /// are the pairs of `sortedMetadata`, the merge written out with a dictionary lookup a key.
  @Test func metadataLinesAreTheSortedMergedPairs() async {
    var random = SplitMix64(state: 34)
    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let keys = ["a", "b", "error", "user", "Z", "é", "e\u{301}", "zone", "a.b", "ß", "", "0"]
    var plans: [(logger: Logger.Metadata, entry: Logger.Metadata?, fails: Bool)] = []
    for _ in 0..<400 {
      var logger: Logger.Metadata = [:]
      for _ in 0..<below(4) { logger[keys[below(keys.count)]] = "l\(below(9))" }
      var entry: Logger.Metadata? = below(4) == 0 ? nil : [:]
      if entry != nil {
        for _ in 0..<below(5) { entry![keys[below(keys.count)]] = "e\(below(9))" }
      }
      plans.append((logger, entry, below(3) == 0))
    }
    let transcript = await Transcript.record { capture in
      for plan in plans {
        var logger = capture.logger(label: "app")
        for (key, value) in plan.logger { logger[metadataKey: key] = value }
        let error = plan.fails ? Failure(description: "boom") : nil
        logger.info("entry", error: error, metadata: plan.entry)
      }
    }
    expectTheSortedMergedPairs(of: transcript, lines: 400)
  }

  /// Each entry's lines are the pairs `sortedMetadata` gives for it; the text has more than
  /// `lines` lines, so that the comparison proves something.
  func expectTheSortedMergedPairs(
    of transcript: Transcript,
    lines: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var expected: [String] = []
    for case .log(let record) in transcript.events {
      expected.append("── log info app: \(record.event.message)")
      for (key, value) in record.sortedMetadata {
        expected.append("  \(key): \(Self.plainDescription(value))")
      }
    }
    #expect(expected.count > lines, sourceLocation: sourceLocation)
    #expect(
      TranscriptTextTests.text(transcript) == expected.joined(separator: "\n"),
      sourceLocation: sourceLocation
    )
  }

  /// A metadata value as swift-log describes it, a dictionary's keys sorted at every depth: the
  /// rule `TranscriptText.describe` follows, written plainly (a call a level: the values here
  /// are shallow).
  static func plainDescription(
    _ value: Logger.MetadataValue,
    inCollection: Bool = false
  ) -> String {
    switch value {
    case .string(let string): inCollection ? string.debugDescription : string
    case .stringConvertible(let convertible):
      inCollection ? convertible.description.debugDescription : convertible.description
    case .array(let values):
      "[" + values.map { plainDescription($0, inCollection: true) }.joined(separator: ", ") + "]"
    case .dictionary(let pairs) where pairs.isEmpty: "[:]"
    case .dictionary(let pairs):
      "["
        + pairs.sorted { $0.key < $1.key }.map {
          "\($0.key.debugDescription): \(plainDescription($0.value, inCollection: true))"
        }.joined(separator: ", ") + "]"
    }
  }

  /// An entry with more pairs than are sorted by insertion: the same merge.
  @Test func manyMetadataPairsAreTheSortedMergedPairs() async {
    let transcript = await Transcript.record { capture in
      var logger = capture.logger(label: "app")
      for key in 0..<60 { logger[metadataKey: "k\(key * 7 % 60)"] = "logger" }
      logger[metadataKey: "error"] = "logger"
      var metadata: Logger.Metadata = [:]
      for key in stride(from: 0, to: 90, by: 3) { metadata["k\(key)"] = "entry" }
      logger.info("many", metadata: metadata)
      logger.info("failed", error: Failure(description: "boom"), metadata: metadata)
    }
    expectTheSortedMergedPairs(of: transcript, lines: 100)
  }

  /// Entries of one logger whose metadata changes every few entries, so that runs of entries
  /// share one dictionary storage (whose sorted pairs the text writes once and copies after):
  /// each entry's lines are still the pairs of `sortedMetadata`, values of every kind included.
  @Test func aLoggersSharedMetadataIsTheSortedMergedPairs() async {
    var random = SplitMix64(state: 36)
    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let keys = ["a", "b", "error", "user", "Z", "é", "e\u{301}", "zone", "a.b", "ß", "", "0"]
    let values: [Logger.MetadataValue] = [
      "text", .stringConvertible(42), .array(["x", .stringConvertible(1.5)]),
      .dictionary(["k": "v"]), "with-dash 2024-", "",
      .dictionary(["k": "v", "a": .array([.dictionary(["z": "1", "b": "2", "é": "3"])])]),
    ]
    let transcript = await Transcript.record { capture in
      var logger = capture.logger(label: "app")
      for entry in 0..<400 {
        if entry % 7 == 0 {
          logger[metadataKey: keys[below(keys.count)]] = values[below(values.count)]
        }
        if entry % 29 == 0 { logger[metadataKey: keys[below(keys.count)]] = nil }
        var metadata: Logger.Metadata? = below(3) == 0 ? nil : [:]
        if metadata != nil {
          for _ in 0..<below(3) { metadata![keys[below(keys.count)]] = values[below(values.count)] }
        }
        let error = below(5) == 0 ? Failure(description: "boom") : nil
        logger.info("entry", error: error, metadata: metadata)
      }
    }
    expectTheSortedMergedPairs(of: transcript, lines: 400)
  }

  /// A logger's request ID, written once and copied after, keeps the number of its first
  /// appearance in the text, also when an entry's own request ID sorts before it.
  @Test func aLoggersRequestIDIsNumberedWhereItFirstAppears() async {
    let transcript = await Transcript.record { capture in
      var logger = capture.logger(label: "app")
      logger[metadataKey: "request_id"] = "first"
      logger.info("one", metadata: ["a.request_id": "second"])
      logger.info("two")
      logger[metadataKey: "request_id"] = "second"
      logger.info("three")
      logger[metadataKey: "request_id"] = "third"
      logger.info("four")
      logger.info("five", metadata: ["request_id": "first"])
    }
    #expect(
      TranscriptTextTests.text(transcript) == """
        ── log info app: one
          a.request_id: REQUEST_ID_1
          request_id: REQUEST_ID_2
        ── log info app: two
          request_id: REQUEST_ID_2
        ── log info app: three
          request_id: REQUEST_ID_1
        ── log info app: four
          request_id: REQUEST_ID_3
        ── log info app: five
          request_id: REQUEST_ID_2
        """
    )
  }

  /// A span's attributes of every kind, written without describing the common ones first: each
  /// line is the attribute described and escaped, the plain way, at the edges of every kind
  /// (the extreme integers, strings that need an escape, and strings just short of and just
  /// beyond the length where a value is cut).
  @Test func attributesOfEveryKindAreTheirEscapedDescriptions() async {
    let limit = TranscriptOptions.maximumValueLength
    let attributes: [(String, SpanAttribute)] = [
      ("i32.min", .int32(.min)), ("i32.max", .int32(.max)), ("i32.zero", .int32(0)),
      ("i32.minus", .int32(-7)), ("i64.min", .int64(.min)), ("i64.max", .int64(.max)),
      ("i64.ten", .int64(10)), ("i64.minus", .int64(-1_000)), ("yes", .bool(true)),
      ("no", .bool(false)), ("empty", .string("")), ("plain", .string("plain text")),
      ("line", .string("a\nb")), ("tab", .string("\t")), ("c1", .string("x\u{85}y")),
      ("accent", .string("é\u{301}")), ("quote", .string("say \"hi\"")),
      ("fits", .string(String(repeating: "a", count: limit - 2))),
      ("cut", .string(String(repeating: "b", count: limit - 1))),
      ("long", .string(String(repeating: "c", count: limit + 5))),
      ("wide", .string(String(repeating: "é", count: limit / 2))),
      ("id", .string("8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B")), ("double", .double(0.1)),
      ("ints", .int64Array([1, -2])), ("words", .stringArray(["a", "b\n"])),
      ("convertible", .stringConvertible(3.25)),
    ]
    let transcript = await Transcript.record { capture in
      capture.tracer.withSpan("job", ofKind: .internal) { span in
        for (key, attribute) in attributes { span.attributes[key] = attribute }
      }
    }
    var expected = ["── span", "job (internal)"]
    for (key, attribute) in attributes.sorted(by: { $0.0 < $1.0 }) {
      expected.append("  \(key) = \(TranscriptText.escaped(TranscriptText.describe(attribute)))")
    }
    #expect(TranscriptTextTests.text(transcript) == expected.joined(separator: "\n"))
  }

  /// A message's section is `.http`'s text without its last character when that is a line
  /// break (`hasSuffix("\n")`, which `\r\n`, one character, is not), however the body ends.
  @Test func aMessageIsHTTPsTextWithoutItsFinalLineBreak() {
    for body in ["", "a", "a\n", "a\r\n", "a\r", "\n", "\r\n", "a\n\n", "é\n", "a\r\n\r\n"] {
      let message = HTTPMessage(
        HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]),
        body: Data(body.utf8)
      )
      let http = httpText(of: message)
      let expected = "── response\n" + (http.hasSuffix("\n") ? String(http.dropLast()) : http)
      let transcript = Transcript(events: [.http(message, outgoing: false)])
      #expect(TranscriptTextTests.text(transcript) == expected, "for \(body.debugDescription)")
    }
  }

  /// The text's `String` is made from its bytes without validating them again (see
  /// `TranscriptText.makeString()`): with characters of two, three and four bytes in a label,
  /// a message cut just after one, logger and entry metadata (a logger's pair copied as written
  /// the second time), a span's name, attributes, event and status, and a JSON body, the text is
  /// the one expected and its bytes are the ones `String(validating:)` and `String(decoding:)`
  /// read back as the same text. (The cut message outgrows the estimated buffer, so the text is
  /// also moved once.)
  @Test func multiByteCharactersEverywhereMakeTheSameValidText() async {
    let limit = TranscriptOptions.maximumValueLength
    let long = String(repeating: "é", count: limit - 1) + "🦊🦊x"
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    let body = Data(#"{"name":"Zoë 🦊","city":"Zürich"}"#.utf8)
    let transcript = await Transcript.record { capture in
      var logger = capture.logger(label: "app.módulo")
      logger[metadataKey: "clé"] = "valeur ✓"
      logger.info("première")
      logger.info("\(long)", metadata: ["ü": "🦊"])
      capture.tracer.withSpan("étape", ofKind: .internal) { span in
        span.attributes["clé"] = "naïve 🦊"
        span.addEvent(SpanEvent(name: "événement", attributes: ["ß": "→"]))
        span.setStatus(SpanStatus(code: .error, message: "échec ✗"))
      }
      capture.record(response, body: body)
    }
    let http = httpText(of: HTTPMessage(response, body: body))
    let expected = [
      "── log info app.módulo: première", "  clé: valeur ✓",
      "── log info app.módulo: " + String(repeating: "é", count: limit - 1)
        + "🦊… (2 more characters)",
      "  clé: valeur ✓", "  ü: 🦊",
      "── span", "étape (internal)", "  clé = \"naïve 🦊\"", "  event événement",
      "    ß = \"→\"", "  status error: échec ✗",
      "── response", http.hasSuffix("\n") ? String(http.dropLast()) : http,
    ]
    let text = TranscriptTextTests.text(transcript)
    #expect(http.contains("Zoë 🦊"))
    #expect(text == expected.joined(separator: "\n"))
    let bytes = Array(text.utf8)
    #expect(String(validating: bytes, as: UTF8.self) == text)
    #expect(String(decoding: bytes, as: UTF8.self) == text)
  }

  /// Whether a value needs the long way, and whether it holds a `-` after its fourth byte (its
  /// bytes read eight at a time, both in one pass), are the byte-by-byte rules: every byte value
  /// at every place of values of 1 to 25 bytes, among plain bytes, dashes, and the bytes next to
  /// the ones that need an escape (0x1F, 0x20, 0x7E, 0x80, 0xC1, 0xC3, 0xFF). (A `,` right after
  /// a `-` may read as one more `-`, which only costs a look: these values hold no such pair.)
  @Test func needingAnEscapeAndHoldingADashAreTheByteByByteRules() {
    func rule(_ bytes: [UInt8]) -> Bool {
      bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    }
    func dashRule(_ bytes: [UInt8]) -> Bool {
      bytes.indices.contains { $0 >= 4 && bytes[$0] == UInt8(ascii: "-") }
    }
    var disagreements = 0
    var firstDisagreement: [UInt8]?
    // Either side of one, two and three words, and a tail of every length.
    for length in [1, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 23, 24, 25] {
      for filler: UInt8 in [0x61, 0x20, 0x7E, 0x80, 0xC1, 0xC3, 0xFF, 0x1F, 0x2D] {
        var bytes = [UInt8](repeating: filler, count: length)
        for place in 0..<length {
          defer { bytes[place] = filler }
          for byte in UInt8.min...UInt8.max {
            bytes[place] = byte
            let fast = TranscriptText.scan(bytes[...])
            let needs = rule(bytes)
            let dash = dashRule(bytes)
            guard fast.needsEscaping != needs || (!needs && fast.hasDashAfterFour != dash)
            else { continue }
            disagreements += 1
            if firstDisagreement == nil { firstDisagreement = bytes }
          }
        }
      }
    }
    #expect(disagreements == 0, "first: \(firstDisagreement ?? [])")
    #expect(TranscriptText.needsEscaping([]) == false)
  }

  /// The lines of an unescaped text that may hold an identity are those where a `-` follows
  /// four hex digits: the rule walked byte by byte, against lines of hex digits, dashes and
  /// other bytes at random.
  @Test func linesThatMayHoldAnIdentityAreThoseOfTheByteByByteRule() {
    var random = SplitMix64(state: 35)
    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let pieces = ["-", "-", "0", "a", "F", "9", "g", "\n", " ", "é", "DEAD", "beef-", "\n-"]
    for _ in 0..<200 {
      let body = (0..<below(60)).map { _ in pieces[below(pieces.count)] }.joined()
      let transcript = Transcript(events: [
        .http(
          HTTPMessage(
            HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]),
            body: Data(body.utf8)
          ),
          outgoing: false
        )
      ])
      let options = TranscriptOptions(
        minimumLevel: .trace,
        durationBucket: nil,
        sourceLocations: false
      )
      let (text, candidates) = TranscriptText.rendered(transcript, options: options)
      let start = "── response\n".utf8.count
      let bytes = Array(text.utf8)
      #expect(Self.byteByByte(bytes, from: start) == candidates, "for \(body.debugDescription)")
    }
  }

  /// The rule as it was written first: a count of hex digits since the last `-`, line break or
  /// other byte; a line is noted when a `-` comes after four or more.
  static func byteByByte(_ bytes: [UInt8], from start: Int) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var lineStart = start
    var hexDigits = 0
    var mayHold = false
    for index in start..<bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\n"):
        if mayHold { ranges.append(lineStart..<index) }
        lineStart = index + 1
        hexDigits = 0
        mayHold = false
      case UInt8(ascii: "-"):
        if hexDigits >= 4 { mayHold = true }
        hexDigits = 0
      default:
        hexDigits = TranscriptIdentities.isHexDigit(bytes[index]) ? hexDigits + 1 : 0
      }
    }
    if mayHold { ranges.append(lineStart..<bytes.count) }
    return ranges
  }
}

extension TranscriptLogRecord {
  /// The rule the text's merge stands for, written the plain way: the logger's metadata, the
  /// entry's over it, and the entry's error under `error`, sorted by key (keys are unique, so the
  /// order is total).
  var sortedMetadata: [(key: String, value: Logger.MetadataValue)] {
    let extra = event.metadata
    let hasError = event.error != nil
    var pairs: [(key: String, value: Logger.MetadataValue)] = []
    pairs.reserveCapacity(loggerMetadata.count + (extra?.count ?? 0) + 1)
    for pair in loggerMetadata where extra?[pair.key] == nil && !(hasError && pair.key == "error") {
      pairs.append(pair)
    }
    for pair in extra ?? [:] where !(hasError && pair.key == "error") { pairs.append(pair) }
    if let error = event.error { pairs.append(("error", "\(error)")) }
    pairs.sort { $0.key < $1.key }
    return pairs
  }
}
