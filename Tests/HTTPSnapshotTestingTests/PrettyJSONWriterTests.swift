import Foundation
import Synchronization
import SnapshotTesting
import TestSupport
import Testing

@testable import HTTPSnapshotTesting

/// `.http` writes a JSON body's text straight from its bytes (`PrettyJSONWriter`), and that text
/// must be, byte for byte, what `.json` prints for the parsed values (`prettyJSONText(of:)`,
/// which runs `JSONEncoder`): checked on edge cases and on thousands of generated documents.
struct PrettyJSONWriterTests {
  /// What `.json` prints for the body's values, and what the writer prints from its bytes.
  func bothTexts(_ body: String) -> (encoder: String, writer: String)? {
    let data = Data(body.utf8)
    guard case .value(let value) = JSONBody.read(data).reading,
      case .value(let extents) = JSONBody.check(data).reading
    else { return nil }
    return (prettyJSONText(of: value), PrettyJSONWriter.text(of: data, extents: extents, after: ""))
  }

  func expectSameText(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let (encoder, writer) = bothTexts(body) else {
      Issue.record("not read as a value: \(body.debugDescription)", sourceLocation: sourceLocation)
      return
    }
    #expect(writer == encoder, "for \(body.debugDescription)", sourceLocation: sourceLocation)
  }

  @Test(arguments: [
    // Empty containers, at the top and nested, and whitespace of every kind around them.
    "[]", "{}", " \t\r\n[ ] ", #"{"a":[],"b":{},"c":[[],{}],"d":[{}]}"#, "[[[]]]",
    // Scalars at the top.
    "true", "false", "null", "0", #""""#, #""x""#, "-1.5",
    // Escapes: every control character, the ones JSON names, `/` raw and escaped, non-ASCII.
    #"["\u0000\u0001\u0007\u0008\u0009\u000a\u000B\u000c\u000D\u000e\u001f\u0020\u007f"]"#,
    #"["\b\f\n\r\t\"\\\/", "a/b", "\u002F", "\u0022\u005c"]"#,
    #"["é", "\u00e9", "e\u0301", "\uD83D\uDE00", "😀", "\u2028\u2029", "\uFFFF", "日本"]"#,
    // Numbers: integers that fit and that do not, negative zero, fractions and exponents.
    "[0, -0, -0.0, 0.0, 1.0, 100.0, 1e2, 1E+2, 1e-2, 2.5e-3, 1e-7, 0.1, 0.30000000000000004]",
    "[9223372036854775807, 9223372036854775808, -9223372036854775808, -9223372036854775809]",
    "[123456789012345678901234, 1e15, 1e16, 1e17, 1e21, 1.5e300, 5e-324, 4.9e-324, 1e-400]",
    "[1.7976931348623157e308, 3.141592653589793, 19.99, 7.50, 0.5e1, 12345678.9]",
    // Names: sorted by UTF-8 bytes, repeated (last wins), escaped, non-ASCII, prefixes.
    #"{"b":1,"a":2,"B":3,"_":4,"aa":5,"a ":6,"":7,"Z":8,"0":9,"10":10,"9":11}"#,
    #"{"a":1,"b":2,"a":3}"#, #"{"a":1,"\u0061":2}"#, #"{"\u0061":1,"a":2}"#,
    #"{"é":1,"z":2,"É":3,"ß":4,"\u00e0":5,"a/b":6,"a\/c":7,"😀":8,"\uD83D\uDE01":9}"#,
    #"{"k\n":1,"k\t":2,"k":3,"k\u0000":4,"k\"":5,"k\\":6}"#,
    // Nesting and indentation.
    #"{"a":{"b":{"c":[1,{"d":[true,false,null]}]}},"e":[[1,2],[3,[4,[5]]]]}"#,
  ])
  func edgeCasesMatchTheEncoder(_ body: String) {
    expectSameText(body)
  }

  @Test func aLargeObjectWithRepeatedNamesMatchesTheEncoder() {
    let members = (0..<200).map { #""k\#($0 % 37)":\#($0)"# }.joined(separator: ",")
    expectSameText("{\(members),\"k3\":{\"last\":[\(members.prefix(40).count)]}}")
  }

  @Test func nestingToTheLimitMatchesTheEncoder() {
    for depth in [1, 2, 100, 400, JSONBody.depthLimit - 1, JSONBody.depthLimit] {
      let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      let objects =
        String(repeating: #"{"k":"#, count: depth - 1) + "{}"
        + String(repeating: "}", count: depth - 1)
      expectSameText(arrays)
      expectSameText(objects)
    }
  }

  /// The limit is on containers: a scalar inside the deepest is printed, as the encoder prints
  /// it (the reader refused it, and named a valid body invalid).
  @Test func aScalarInsideTheDeepestContainersMatchesTheEncoder() {
    let depth = JSONBody.depthLimit
    expectSameText(String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth))
    expectSameText(
      String(repeating: #"{"k":"#, count: depth) + #""v""# + String(repeating: "}", count: depth)
    )
  }

  /// The reader and the writer keep the containers they are in on arrays, not on the call
  /// stack: the deepest bodies `.json` prints, of arrays and of objects, are checked and written
  /// on a thread with a stack of 64 KiB, as on any other (the recursive ones overflowed it, a
  /// crash of the whole test process).
  @Test func theDeepestBodiesAreReadAndWrittenOnASmallStack() {
    let depth = JSONBody.depthLimit
    let bodies = [
      String(repeating: "[", count: depth - 1) + "[]" + String(repeating: "]", count: depth - 1),
      String(repeating: #"{"k":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1),
      String(repeating: #"[{"a":0,"b":"#, count: depth / 2) + "1"
        + String(repeating: "}]", count: depth / 2),
    ]
    for body in bodies {
      guard let (encoder, _) = bothTexts(body) else {
        Issue.record("not read: \(body.prefix(20))")
        continue
      }
      // `.http`'s path: checked, then written from the bytes. (The values `read` makes, for
      // tests and the fuzzer only, are freed by the runtime, recursively, 511 levels at most.)
      let writer = onSmallStack {
        let data = Data(body.utf8)
        guard case .value(let extents) = JSONBody.check(data).reading else { return "not read" }
        return PrettyJSONWriter.text(of: data, extents: extents, after: "")
      }
      #expect(writer == encoder, "\(body.prefix(20))")
    }
  }

  /// A million levels of arrays, of objects and of both, read on the same small stack: named
  /// too deep, no crash. (The writer is given only what the check accepts: its text grows with
  /// the square of the depth, two spaces a level a line, which is one more reason for the
  /// limit.)
  @Test func aMillionLevelsAreReadOnASmallStack() {
    let depth = 1_000_000
    let bodies = [
      String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
      String(repeating: #"{"k":"#, count: depth) + "0" + String(repeating: "}", count: depth),
      String(repeating: #"[{"k":"#, count: depth / 2) + "0" + String(repeating: "}]", count: depth / 2),
    ]
    for body in bodies {
      let verdicts = onSmallStack {
        let data = Data(body.utf8)
        return [
          JSONBody.read(data).reading.name, JSONBody.check(data).reading.name,
          JSONBody.read(data.dropLast()).reading.name,
        ]
      }
      #expect(verdicts == ["too deep", "too deep", "invalid"], "\(body.prefix(8))")
    }
  }

  @Test func generatedDocumentsMatchTheEncoder() {
    var generator = JSONGenerator(seed: 36)
    var compared = 0
    for round in 0..<3_000 {
      let body = generator.document(depth: round % 6)
      guard let (encoder, writer) = bothTexts(body) else {
        Issue.record("generated body not read: \(body.debugDescription)")
        continue
      }
      if writer != encoder {
        Issue.record("differs for \(body.debugDescription):\n\(writer)\n---\n\(encoder)")
        return
      }
      // Without extents (a body of 4 GiB or more has none), each value is stepped over by
      // reading it: the same text.
      let unindexed = PrettyJSONWriter.text(
        of: Data(body.utf8),
        extents: ContainerExtents(),
        after: ""
      )
      if unindexed != encoder {
        Issue.record("differs without extents for \(body.debugDescription)")
        return
      }
      compared += 1
    }
    #expect(compared == 3_000)
  }

  @Test func theTextFollowsThePrefixInOneString() {
    let data = Data(#"{"b":[1],"a":"x/y"}"#.utf8)
    guard case .value(let extents) = JSONBody.check(data).reading else {
      Issue.record("not read")
      return
    }
    #expect(
      PrettyJSONWriter.text(of: data, extents: extents, after: "HTTP/1.1 200 OK\n\n")
        == "HTTP/1.1 200 OK\n\n{\n  \"a\" : \"x\\/y\",\n  \"b\" : [\n    1\n  ]\n}"
    )
  }

  @Test func checkingNotesWhereEveryMemberContainerEnds() {
    let body = #"{"a": [1, {"b": {}}], "c": 2, "d": {"e": []}}"#
    guard case .value(let extents) = JSONBody.check(Data(body.utf8)).reading else {
      Issue.record("not read")
      return
    }
    // Members' values: `[1, …]` of "a", `{}` of "b", `{"e": []}` of "d" and `[]` of "e".
    for (start, end) in [6: 20, 16: 18, 35: 44, 41: 43] {
      #expect(extents.end(ofContainerAt: start) == end, "container at \(start)")
    }
    // The top and an array's element are written in place, never stepped over.
    #expect(extents.end(ofContainerAt: 0) == nil)
    #expect(extents.end(ofContainerAt: 10) == nil)
  }
}

/// Random JSON text with a fixed seed: every value kind, names that repeat and differ in case,
/// every escape, numbers in every spelling, and whitespace between tokens.
struct JSONGenerator {
  /// Seeded, so that a failure can be replayed.
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(state: seed) }

  mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

  mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

  mutating func space() -> String { pick(["", "", "", " ", "\n  ", "\t", "\r\n"]) }

  mutating func document(depth: Int) -> String { space() + value(depth: depth) + space() }

  mutating func value(depth: Int) -> String {
    switch below(depth > 0 ? 8 : 5) {
    case 0: return pick(["true", "false", "null"])
    case 1, 2: return number()
    case 3, 4: return string()
    case 5, 6: return object(depth: depth - 1)
    default: return array(depth: depth - 1)
    }
  }

  mutating func number() -> String {
    let sign = pick(["", "", "-"])
    let integer = pick(["0", "1", "7", "42", "100", "65535", "9007199254740993"])
    let fraction = below(2) == 0 ? "" : "." + String(below(1_000_000)) + pick(["", "0", "00"])
    // Long integers (beyond `Int`) or exponents, kept within a `Double`'s range.
    if integer != "0", below(8) == 0 {
      return sign + integer + String(repeating: "9", count: below(25)) + fraction
    }
    let exponent =
      below(3) == 0 ? pick(["e", "E"]) + pick(["", "+", "-"]) + String(below(290)) : ""
    return sign + integer + fraction + exponent
  }

  mutating func string() -> String {
    let pieces = [
      "a", "b", "Z", "id", "name", " ", "/", "\\/", "\\\"", "\\\\", "\\n", "\\t", "\\r", "\\b",
      "\\f", "\\u0000", "\\u001F", "\\u007f", "\\u00E9", "é", "e\u{301}", "😀", "\\uD83D\\uDE00",
      "日", "\\u2028", "~", "'", "<", "&", "\u{7F}",
    ]
    return "\"" + (0..<below(6)).map { _ in pick(pieces) }.joined() + "\""
  }

  mutating func object(depth: Int) -> String {
    let names = ["a", "b", "A", "aa", "a b", "é", "\\u00e9", "z", "_", "0", "10", "2", "ID", "id"]
    let members = (0..<below(7)).map { _ in
      space() + "\"" + pick(names) + "\"" + space() + ":" + space() + value(depth: depth)
        + space()
    }
    return "{" + (members.isEmpty ? space() : members.joined(separator: ",")) + "}"
  }

  mutating func array(depth: Int) -> String {
    let elements = (0..<below(6)).map { _ in space() + value(depth: depth) + space() }
    return "[" + (elements.isEmpty ? space() : elements.joined(separator: ",")) + "]"
  }
}

/// `body`'s result, run on a thread whose stack is 64 KiB (a test's usual one is 8 MiB).
func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
  let result = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    let value = body()
    result.withLock { $0 = value }
    done.signal()
  }
  thread.stackSize = 64 * 1024
  thread.start()
  done.wait()
  return result.withLock { $0! }
}

extension JSONBody.Reading {
  /// The verdict, without its value.
  var name: String {
    switch self {
    case .value: "value"
    case .numberBeyondDoubleRange: "number beyond range"
    case .namesDifferingOnlyInNormalization: "names equal but for normalization"
    case .tooDeep: "too deep"
    case .invalid: "invalid"
    }
  }
}
