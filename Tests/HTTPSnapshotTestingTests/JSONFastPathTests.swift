import Foundation
import SnapshotTesting
import TestSupport
import Testing

@testable import HTTPSnapshotTesting

/// The short cuts that make `.http` of a JSON body fast, each against the long way it stands in
/// for: a check that makes no strings for plain names and values and parses no `Double` that
/// cannot be out of range gives the verdict of a full reading; a decimal written from its
/// spelling is its `Double`'s description.
struct JSONFastPathTests {
  /// The verdict without its payload, and the payload as text, to compare two readings.
  func verdict<Value>(_ reading: JSONBody.Reading<Value>) -> String {
    switch reading {
    case .value: "value"
    case .numberBeyondDoubleRange(let number): "beyond \(number)"
    case .namesDifferingOnlyInNormalization(let first, let second):
      "twins \(Array(first.unicodeScalars)) \(Array(second.unicodeScalars))"
    case .tooDeep: "too deep"
    case .invalid: "invalid"
    }
  }

  func expectSameVerdict(_ body: Data, sourceLocation: SourceLocation = #_sourceLocation) {
    let checked = verdict(JSONBody.check(body).reading)
    let read = verdict(JSONBody.read(body).reading)
    #expect(
      checked == read,
      "for \(String(decoding: body, as: UTF8.self).debugDescription)",
      sourceLocation: sourceLocation
    )
  }

  @Test(arguments: [
    // Plain names before a name that is not plain: the plain ones are compared with it.
    "{\"K\": 1, \"b\": 2, \"\u{212A}\": 3}",
    #"{"K": 1, "b": 2, "\u212A": 3}"#,
    "{\"a\": 1, \"a\": 2, \"\u{E9}\": 3, \"e\u{301}\": 4}",
    "{\"a\": {\"\u{E9}\": 1}, \"e\u{301}\": {\"x\": [\"\u{E9}\"]}, \"\u{E9}\": 2}",
    // A plain name repeated, then one that is not: no twins.
    #"{"a": 1, "a": 2, "\u00e9": 3}"#,
    // Strings that are not plain: escapes, non-ASCII, control characters, unterminated.
    #"["a\"b", "\u00e9", "é", "\ud800", "\udc00x", "\uD83D\uDE00"]"#,
    "[\"a\u{1}\"]", "[\"a", #"{"a\": 1}"#, #"{"a": "b\"}"#,
    // Numbers: long without an exponent, with one, out of range either way.
    "[" + String(repeating: "9", count: 299) + "]",
    "[" + String(repeating: "9", count: 299) + ".5]",
    "[1" + String(repeating: "0", count: 400) + "]",
    "[-1" + String(repeating: "0", count: 400) + ".25]",
    "[1e308, 1e309, -1e400, 1e-400]", "[01]", "[1.]", "[-]", "[1e]", "[.5]",
  ])
  func aCheckGivesTheVerdictOfAFullReading(_ body: String) {
    expectSameVerdict(Data(body.utf8))
  }

  @Test func invalidUTF8InANameOrAValueIsInvalidBothWays() {
    for bytes: [UInt8] in [
      [0x5B, 0x22, 0xFF, 0x22, 0x5D],  // ["\xFF"]
      [0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D],  // {"\xC3":1}
      [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x31, 0x2C, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x32, 0x7D],
    ] {
      let body = Data(bytes)
      expectSameVerdict(body)
      #expect(verdict(JSONBody.check(body).reading) == "invalid")
    }
  }

  /// Thousands of generated bodies, and each broken at a random place in a random way: the
  /// check and the full reading agree on every one.
  @Test func generatedAndBrokenBodiesGetTheSameVerdict() {
    var generator = JSONGenerator(seed: 34)
    var verdicts: [String: Int] = [:]
    for round in 0..<3_000 {
      var body = Array(generator.document(depth: round % 6).utf8)
      if round % 2 == 1, !body.isEmpty {
        let place = generator.below(body.count)
        switch generator.below(4) {
        case 0: body.removeSubrange(place...)
        case 1: body.insert(generator.pick([0x22, 0x5C, 0x01, 0xFF, 0x2C, 0x7D, 0x5D]), at: place)
        case 2: body[place] = generator.pick([0x22, 0x5C, 0x3A, 0x80, 0x65, 0x2E])
        default: body.remove(at: place)
        }
      }
      let data = Data(body)
      let checked = verdict(JSONBody.check(data).reading)
      verdicts[checked, default: 0] += 1
      if checked != verdict(JSONBody.read(data).reading) {
        Issue.record(
          "verdicts differ for \(String(decoding: body, as: UTF8.self).debugDescription)"
        )
        return
      }
    }
    // Both kinds were met, so the comparison proved something.
    #expect(verdicts["value", default: 0] > 1_000)
    #expect(verdicts["invalid", default: 0] > 500)
  }

  func shortDecimal(_ spelling: String) -> String? {
    PrettyJSONNumber.shortDecimal(Array(spelling.utf8)[...]).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  func longWay(_ spelling: String) -> String {
    PrettyJSONNumber.doubleDescription(Array(spelling.utf8)[...])
  }

  @Test(arguments: [
    ("9.5", "9.5"), ("19.90", "19.9"), ("100.0", "100"), ("-0.0", "-0"), ("0.0", "0"),
    ("0.0001", "0.0001"), ("0.000123456789012345", "0.000123456789012345"),
    ("123456789012345.0", "123456789012345"), ("12345678901234.5", "12345678901234.5"),
    ("-7.250", "-7.25"), ("0.30000000000000", "0.3"),
  ])
  func decimalsItProvesAreWrittenFromTheirSpelling(_ spelling: String, _ expected: String) {
    #expect(shortDecimal(spelling) == expected)
    #expect(longWay(spelling) == expected)
  }

  @Test(arguments: [
    // Beyond 15 digits, under 0.0001, from 10^15, with an exponent, or an integer.
    "0.30000000000000004", "1234567890123456.5", "0.00001", "0.00009999", "1000000000000000.0",
    "1e2", "1.5e3", "12", "-3",
  ])
  func spellingsItCannotProveGoTheLongWay(_ spelling: String) {
    #expect(shortDecimal(spelling) == nil)
  }

  /// Random decimals around every bound: whenever the spelling is used, it is the description.
  @Test func everyDecimalWrittenFromItsSpellingIsItsDescription() {
    var random = SplitMix64(state: 15)
    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(below(10))) })
    }
    var proved = 0
    for _ in 0..<20_000 {
      let integer = below(4) == 0 ? "0" : String(1 + below(9)) + digits(below(17))
      let fraction =
        String(repeating: "0", count: below(6)) + digits(below(17))
        + String(repeating: "0", count: below(3))
      let spelling =
        (below(3) == 0 ? "-" : "") + integer + "." + (fraction.isEmpty ? "0" : fraction)
      guard let short = shortDecimal(spelling) else { continue }
      proved += 1
      if short != longWay(spelling) {
        Issue.record("\(spelling): \(short), but its description is \(longWay(spelling))")
        return
      }
    }
    #expect(proved > 5_000)
  }

  /// A string's text is stepped over eight bytes at a time up to its first `"`, `/` or `\`:
  /// each of them at every offset of strings of every length up to 40, near the body's end and
  /// far from it, is written as the encoder writes it.
  @Test func specialBytesAtEveryOffsetOfAString() {
    for length in 0...40 {
      for offset in 0...length {
        for special in [#"\""#, "/", #"\\"#, #"\n"#, #"\u00e9"#, "é"] {
          let plain = String(repeating: "abcdefgh", count: 6)
          let text = String(plain.prefix(offset)) + special + String(plain.prefix(length - offset))
          for body in [#"["\#(text)"]"#, #"{"\#(text)":["\#(text)", 1]}"#] {
            guard let (written, encoded) = writtenAndEncoded(body), written == encoded else {
              Issue.record("differs for \(body)")
              return
            }
          }
        }
      }
    }
  }

  /// An object's members are sorted among themselves while the members of the objects around it
  /// wait on the same stack: deep and wide objects, sorted and not, with repeated names.
  @Test func objectsInsideObjectsKeepTheirOwnMembers() {
    let body = #"""
      {"z": {"b": {"y": 1, "x": {"k\u0041": 1, "kA": 2}}, "a": [{"q": 1, "p": {"s": 2, "r": 3}}]},
       "a\u00e9": {"c": 1, "b": 2, "a": 3}, "y": 2, "a\u00e9": {"d": 4}, "m": {}}
      """#
    let texts = writtenAndEncoded(body)
    #expect(texts != nil && texts?.written == texts?.encoded)
  }

  /// The text is written in chunks moved into the string as they fill, each up to its last whole
  /// character: with chunks of 8 to 13 bytes, every kind of character falls across a boundary
  /// somewhere in 500 generated bodies, and the text is the same.
  @Test func chunksEndOnlyAtWholeCharacters() {
    var generator = JSONGenerator(seed: 8)
    for round in 0..<500 {
      let body = generator.document(depth: 1 + round % 5) + " "
      let data = Data(body.utf8)
      guard case .value(let extents) = JSONBody.check(data).reading else { continue }
      let whole = PrettyJSONWriter.text(of: data, extents: extents, after: "── é\n")
      for chunkSize in 8...13 {
        let chunked = PrettyJSONWriter.text(
          of: data,
          extents: extents,
          after: "── é\n",
          chunkSize: chunkSize
        )
        if chunked != whole {
          Issue.record("differs in chunks of \(chunkSize) for \(body.debugDescription)")
          return
        }
      }
    }
  }

  /// The writer's text of a body and the encoder's of its values, or `nil` if it is not read.
  func writtenAndEncoded(_ body: String) -> (written: String, encoded: String)? {
    let data = Data(body.utf8)
    guard case .value(let value) = JSONBody.read(data).reading,
      case .value(let extents) = JSONBody.check(data).reading
    else { return nil }
    return (PrettyJSONWriter.text(of: data, extents: extents, after: ""), prettyJSONText(of: value))
  }
}
