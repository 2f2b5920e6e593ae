import Foundation
import TestSupport
import HTTPTypes
import SnapshotTesting
import Testing

@testable import HTTPSnapshotTesting

/// A JSON body is parsed by the module's own parser and written by `.json`: the text must be the
/// bytes `.json` prints for the model, and whatever is not RFC 8259 JSON must be refused.
@Suite struct JSONBodyTests {
  struct Model: Codable {
    struct Nested: Codable {
      var flag: Bool
      var ratio: Double
      var missing: String?
    }
    var title: String
    var path: String
    var count: Int
    var negative: Int
    var values: [Double]
    var nested: Nested
    var empty: [Int]
    var emptyObject: [String: Int]
    var map: [String: Nested]
    var optional: Int?
  }

  static let model = Model(
    title: "Grüße, \"quoted\" \\ tab\t and 🎉",
    path: "a/b",
    count: 9_007_199_254_740_993,
    negative: -42,
    values: [0.1, 1.5e300, -0.0, 3, 1e-7],
    nested: .init(flag: true, ratio: 2.0 / 3.0, missing: nil),
    empty: [],
    emptyObject: [:],
    map: ["b": .init(flag: false, ratio: 1, missing: "x"), "a": .init(flag: true, ratio: 0)],
    optional: nil
  )

  func bodyText(_ body: Data) -> String {
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    let text = snapshotText(HTTPMessage(response, body: body), as: .http).text
    return String(text.dropFirst("HTTP/1.1 200 OK\nContent-Type: application/json\n\n".count))
  }

  @Test func theBodyOfAModelIsWhatDotJSONPrintsForIt() throws {
    let expected = snapshotText(Self.model, as: .json).text
    // Whatever encoder the server used, compact or pretty, keys in any order.
    let compact = try JSONEncoder().encode(Self.model)
    let pretty = Data(expected.utf8)
    #expect(bodyText(compact) == expected)
    #expect(bodyText(pretty) == expected)
  }

  @Test func escapesAndSurrogatePairsAreDecoded() {
    let body = Data(#"{"s":"\u00e9\ud83c\udf89\n\/\"","t":"\u0041"}"#.utf8)
    #expect(bodyText(body) == "{\n  \"s\" : \"é🎉\\n\\/\\\"\",\n  \"t\" : \"A\"\n}")
  }

  @Test func aRepeatedNameKeepsItsLastValue() {
    #expect(JSONBody.parse(Data(#"{"a":1,"b":2,"a":3}"#.utf8)).map(describe) == #"{a:3,b:2}"#)
    // Past 16 members the names are looked up in a dictionary; the answer must not change.
    let many = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let parsed = JSONBody.parse(Data("{\(many),\"k3\":\"last\"}".utf8)).map(describe)
    #expect(parsed?.contains("k3:\"last\"") == true)
    #expect(parsed?.components(separatedBy: "k3:").count == 2)
  }

  @Test(arguments: [
    "{\"a\":1,}", "[1,]", "01", "1.", ".5", "-", "+1", "1e", "\"\\x\"", "\"\\ud83c\"",
    "\"a\nb\"", "{\"a\" 1}", "[1 2]", "nul", "truth", "1 2", "", "   ", "{", "[", "\"open",
    "NaN", "Infinity", "1e999",
  ])
  func invalidJSONIsRefused(_ text: String) {
    #expect(JSONBody.parse(Data(text.utf8)) == nil, "\(text.debugDescription) parsed")
  }

  @Test(arguments: ["0", "-0", "1.25", "1E+2", "true", "null", "\"x\"", " [ ] ", "{ }"])
  func validJSONAtTheTopIsAccepted(_ text: String) {
    #expect(JSONBody.parse(Data(text.utf8)) != nil, "\(text.debugDescription) refused")
  }

  /// Valid JSON with a number no `Double` holds is text under a line naming the number, not
  /// "not valid JSON".
  @Test func aNumberBeyondDoubleRangeIsNamed() {
    let body = Data(#"{"big": 1e400, "also": -2E+999}"#.utf8)
    #expect(JSONBody.numberBeyondDoubleRange(in: body) == "1e400")
    #expect(
      bodyText(body)
        == "[application/json body holds 1e400, beyond a Double's range; shown as text]\n"
        + #"{"big": 1e400, "also": -2E+999}"#
    )
    // Not well-formed around it: plain invalid JSON.
    #expect(JSONBody.numberBeyondDoubleRange(in: Data("[1e400,]".utf8)) == nil)
    #expect(bodyText(Data("[1e400,]".utf8)).hasPrefix("[application/json body is not valid JSON"))
    let long = "1" + String(repeating: "0", count: 400)
    #expect(
      JSONBody.numberBeyondDoubleRange(in: Data("[\(long).5]".utf8))
        == String(long.prefix(40)) + "…"
    )
  }

  @Test func deepNestingIsRefusedNotACrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(JSONBody.parse(Data(deep.utf8)) == nil)
    let text = bodyText(Data(deep.utf8))
    // Valid, only deeper than the parser reads: named as too deep (BodyNamingTests), never
    // called invalid.
    #expect(
      text.hasPrefix("[application/json body nests deeper than 511 levels; shown as text]\n[[["))
  }

  /// A million levels, of arrays and of objects, closed and left open: nothing reads or prints
  /// them on the call stack (the value reader stops at 511 levels; the pass that tells "too deep"
  /// from "invalid" keeps its containers in an array), so each body is named, never a crash.
  @Test func aMillionLevelsAreNamedNotACrash() {
    let levels = 1_000_000
    let arrays = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
    let objects =
      String(repeating: #"{"a":"#, count: levels) + "1"
      + String(repeating: "}", count: levels)
    for deep in [arrays, objects] {
      #expect(JSONBody.parse(Data(deep.utf8)) == nil)
      #expect(JSONBody.isWellFormedBeyondDepthLimit(Data(deep.utf8)))
      #expect(
        bodyText(Data(deep.utf8)).hasPrefix(
          "[application/json body nests deeper than 511 levels; shown as text]\n"
        )
      )
      let open = String(deep.prefix(deep.utf8.count / 2))
      #expect(!JSONBody.isWellFormedBeyondDepthLimit(Data(open.utf8)))
      #expect(bodyText(Data(open.utf8)).hasPrefix("[application/json body is not valid JSON"))
    }
  }

  /// Documented differences from Foundation's `JSONSerialization`, found by `FuzzJSONBody`: it
  /// takes a trailing comma, skips a UTF-8 byte-order mark and guesses UTF-32 from NUL bytes, none
  /// of which RFC 8259 lets a sender write; `.http` shows those bodies as text, as not valid JSON.
  /// (If Foundation stops forgiving one, this test says so, and the article's list shrinks.)
  @Test func bodiesJSONSerializationForgivesAreNotValidJSON() throws {
    let bodies: [[UInt8]] = [
      Array("[1,2,]".utf8), Array(#"{"a":1,}"#.utf8), [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8),
      [0x30, 0, 0, 0],
    ]
    for bytes in bodies {
      let body = Data(bytes)
      #expect(
        (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)) != nil,
        "JSONSerialization now refuses \(bytes)"
      )
      #expect(JSONBody.parse(body) == nil)
      let text = bodyText(body)
      #expect(text.hasPrefix("[application/json body is not valid JSON"), "\(text)")
    }
  }

  /// Found by `FuzzJSONBody`: JSONSerialization drops a U+FEFF that begins a string or a name,
  /// or follows an escape in one, as it drops a byte-order mark before a document; JSONBody keeps
  /// it, a character of the string as RFC 8259 says, so `.http` shows the text the server sent.
  /// (If Foundation starts keeping it, this test says so, and the article's list shrinks.)
  @Test func aStringBeginningWithU_FEFFKeepsIt() throws {
    let body = Data(#"{"\#u{FEFF}k":"\#u{FEFF}a\n\#u{FEFF}b"}"#.utf8)
    let foundation = try JSONSerialization.jsonObject(with: body) as? [String: String]
    #expect(foundation == ["k": "a\nb"], "JSONSerialization now keeps U+FEFF")
    let text = bodyText(body)
    #expect(!text.hasPrefix("[application/json body is not valid JSON"), "\(text)")
    #expect(text.contains(#""\#u{FEFF}k" : "\#u{FEFF}a\n\#u{FEFF}b""#), "\(text)")
  }

  @Test func integersBeyondIntAreDoubles() {
    #expect(JSONBody.parse(Data("123456789012345678901234".utf8)).map(describe) == "double")
    #expect(JSONBody.parse(Data("-9223372036854775808".utf8)).map(describe) == "int")
    #expect(JSONBody.parse(Data("9223372036854775807".utf8)).map(describe) == "int")
    #expect(JSONBody.parse(Data("9223372036854775808".utf8)).map(describe) == "double")
    #expect(JSONBody.parse(Data("-9223372036854775809".utf8)).map(describe) == "double")
    #expect(JSONBody.parse(Data("-0".utf8)).map(describe) == "double")
    #expect(JSONBody.parse(Data("[-12]".utf8)).map { "\($0)" }?.contains("int(-12)") == true)
  }

  /// A compact description of a parsed value, for comparing structure.
  func describe(_ value: JSONBody) -> String {
    switch value {
    case .object(let members):
      "{" + members.map { "\($0.name):\(describeLeaf($0.value))" }.joined(separator: ",") + "}"
    case .int: "int"
    case .double: "double"
    default: describeLeaf(value)
    }
  }

  func describeLeaf(_ value: JSONBody) -> String {
    switch value {
    case .int(let number): String(number)
    case .string(let text): "\"\(text)\""
    default: "…"
    }
  }
}
