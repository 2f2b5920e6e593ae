// libFuzzer harness: the JSON body reader and printer of `.http` (`JSONBody`, `PrettyJSONWriter`),
// checked against Foundation's `JSONSerialization`. Run with `scripts/fuzz.sh FuzzJSONBody SECONDS`.
//
// A JSON body comes from the server under test. Invariants, for any bytes:
// - the reading that keeps values (`read`) and the one that keeps none (`check`) give the same
//   verdict: a value, a number beyond a `Double`, names equal but for normalisation, too deep, or
//   invalid;
// - differential: `JSONSerialization` (`.fragmentsAllowed`) accepts exactly the bodies read as
//   values or as names equal but for normalisation, and reads the same values (numbers equal as
//   numbers, strings scalar for scalar, objects as dictionaries), except where the Reliability
//   article documents an intended difference (below, `documentedDifference`);
// - the text the writer makes from the bytes is the text `.json` prints for the values
//   (`prettyJSONText(of:)`, `JSONEncoder`), byte for byte;
// - that text is a fixed point: read again it is a value, and written again it is the same text;
// - it stays within its size bound: at most one line per input byte (and two), and no more bytes
//   than those lines' indents (two spaces a level, at most 511 levels) and 24 per input byte;
// - each input takes at most 500 ms of processor time.

import Foundation
import FuzzingChecks
import FuzzingSupport
import SnapshotTesting

@testable import HTTPSnapshotTesting

/// One run of libFuzzer, on one input.
private func fuzzJSONBody(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = Data(UnsafeBufferPointer(start: data, count: size))
  return withinTimeBound(.milliseconds(500), size: size) { check(input) }
}

private func check(_ input: Data) {
  let read = JSONBody.read(input).reading
  let checked = JSONBody.check(input).reading
  require(
    verdict(read) == verdict(checked),
    "read gives \(verdict(read)), check gives \(verdict(checked))"
  )
  checkAgainstFoundation(input, read)
  guard case .value(let value) = read, case .value(let extents) = checked else { return }
  let written = PrettyJSONWriter.text(of: input, extents: extents, after: "")
  let encoded = prettyJSONText(of: value)
  require(
    written == encoded,
    "the writer gives \(written.debugDescription), JSONEncoder \(encoded.debugDescription)"
  )
  checkSize(written, of: input)
  // A fixed point: the text reads as a value and writes as itself.
  let again = Data(written.utf8)
  guard case .value(let againValue) = JSONBody.read(again).reading,
    case .value(let againExtents) = JSONBody.check(again).reading
  else { fail("the printed text \(written.debugDescription) does not read as a value") }
  require(same(againValue, value), "the printed text reads as another value")
  let rewritten = PrettyJSONWriter.text(of: again, extents: againExtents, after: "")
  require(
    rewritten == written,
    "the printed text prints as \(rewritten.debugDescription), not itself"
  )
}

private func verdict<Value>(_ reading: JSONBody.Reading<Value>) -> String {
  switch reading {
  case .value: "a value"
  case .numberBeyondDoubleRange: "a number beyond a Double"
  case .namesDifferingOnlyInNormalization: "names equal but for normalisation"
  case .tooDeep: "too deep"
  case .invalid: "invalid"
  }
}

// MARK: - Against JSONSerialization

private func checkAgainstFoundation(_ input: Data, _ reading: JSONBody.Reading<JSONBody>) {
  let foundation = try? JSONSerialization.jsonObject(with: input, options: [.fragmentsAllowed])
  if documentedDifference(input, reading, foundation) != nil { return }
  switch reading {
  case .value(let value):
    guard let foundation else {
      fail("JSONSerialization refuses what JSONBody reads as \(value)")
    }
    require(
      equal(value, foundation),
      "JSONBody reads \(value), JSONSerialization \(foundation)"
    )
  case .namesDifferingOnlyInNormalization:
    require(foundation != nil, "JSONSerialization refuses names equal but for normalisation")
  case .invalid:
    require(foundation == nil, "JSONSerialization reads \(foundation!) where JSONBody refuses")
  case .numberBeyondDoubleRange, .tooDeep:
    break
  }
}

/// The intended differences, each named in the Reliability article and tested in
/// `JSONBodyTests`; `nil` when the two readers must agree.
private func documentedDifference(
  _ input: Data,
  _ reading: JSONBody.Reading<JSONBody>,
  _ foundation: Any?
) -> String? {
  switch reading {
  case .numberBeyondDoubleRange:
    // JSONBody names `1e400` as beyond a Double; JSONSerialization may refuse or round it.
    return "a number beyond a Double"
  case .tooDeep:
    // JSONBody reads 511 levels, what JSONEncoder writes; JSONSerialization reads 512.
    return "nesting beyond 511 levels"
  case .invalid:
    guard let foundation else { return nil }
    // JSONSerialization guesses UTF-16 or UTF-32 from a byte-order mark or from NUL bytes among
    // the first four; `.http` reads a JSON body as UTF-8 (another charset is converted first, by
    // its Content-Type), and a NUL byte is never valid JSON in UTF-8.
    if input.prefix(4).contains(0) || input.starts(with: [0xFE, 0xFF])
      || input.starts(with: [0xFF, 0xFE])
    {
      return "another encoding guessed"
    }
    // JSONSerialization skips a UTF-8 byte-order mark, which RFC 8259 says a sender must not
    // add (§8.1): `.http` shows such a body as text, saying it is not valid JSON.
    var body = input
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = Data(body.dropFirst(3)) }
    // JSONSerialization (swift-foundation) takes a comma before `]` or `}`, which RFC 8259 does
    // not allow: the body is the same values without those commas.
    if let repaired = withoutTrailingCommas(body) { body = repaired }
    if body != input, case .value(let value) = JSONBody.read(body).reading,
      equal(value, foundation)
    {
      return "a byte-order mark or a trailing comma"
    }
    // With names equal but for normalisation too, which JSONSerialization reads as one.
    if body != input, case .namesDifferingOnlyInNormalization = JSONBody.read(body).reading {
      return "a byte-order mark or a trailing comma, and names equal but for normalisation"
    }
    return nil
  default:
    return nil
  }
}

/// The body without each comma that only whitespace separates from the `]` or `}` after it
/// (outside strings), or `nil` when it has none.
private func withoutTrailingCommas(_ input: Data) -> Data? {
  let bytes = [UInt8](input)
  var kept: [UInt8] = []
  var inString = false
  var escaped = false
  var removed = false
  for (index, byte) in bytes.enumerated() {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
    } else if byte == UInt8(ascii: "\"") {
      inString = true
    } else if byte == UInt8(ascii: ",") {
      let next = bytes[(index + 1)...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
      if next == UInt8(ascii: "]") || next == UInt8(ascii: "}") {
        removed = true
        continue
      }
    }
    kept.append(byte)
  }
  return removed ? Data(kept) : nil
}

/// Whether JSONBody's value is what JSONSerialization read.
private func equal(_ value: JSONBody, _ other: Any) -> Bool {
  switch value {
  case .null:
    return other is NSNull
  case .bool(let truth):
    return (other as? NSNumber)?.boolValue == truth
  case .int(let integer):
    guard let number = other as? NSNumber else { return false }
    return number.int64Value == Int64(integer) || number.doubleValue == Double(integer)
  case .double(let double):
    guard let number = other as? NSNumber else { return false }
    // An integer beyond 64 bits is kept as its digits (a `Decimal`), whose `doubleValue` is not
    // always the nearest `Double`: its digits, read as a `Double`, are.
    return number.doubleValue == double || Double("\(number)") == double
  case .string(let string):
    guard let otherString = other as? String else { return false }
    return asFoundationReadsIt(string).unicodeScalars.elementsEqual(
      asFoundationReadsIt(otherString).unicodeScalars
    )
  case .array(let elements):
    guard let others = other as? [Any], others.count == elements.count else { return false }
    return zip(elements, others).allSatisfy { equal($0, $1) }
  case .object(let members):
    // Names that differ only in a U+FEFF may be one name to JSONSerialization.
    let names = Set(members.map { asFoundationReadsIt($0.name) })
    guard names.count == members.count else { return true }
    guard let others = other as? [String: Any], others.count == members.count else {
      return false
    }
    return members.allSatisfy { member in
      let other =
        others[member.name]
        ?? others.first { asFoundationReadsIt($0.key) == asFoundationReadsIt(member.name) }?.value
      return other.map { equal(member.value, $0) } ?? false
    }
  }
}

/// Documented: JSONSerialization (swift-foundation, Swift 6.3.1) drops a U+FEFF that begins a
/// string or a name or follows an escape in one (`"\u{FEFF}a"` and `"\\n\u{FEFF}a"` lose it), as
/// it drops a byte-order mark before a document; JSONBody keeps the character, as RFC 8259 says
/// (`JSONBodyTests.aStringBeginningWithU_FEFFKeepsIt`). Strings are compared without any.
private func asFoundationReadsIt(_ string: String) -> String {
  guard string.unicodeScalars.contains("\u{FEFF}") else { return string }
  return String(String.UnicodeScalarView(string.unicodeScalars.filter { $0 != "\u{FEFF}" }))
}

// MARK: - The printed text

/// Two values alike, objects compared as dictionaries (the printed text sorts their names).
private func same(_ first: JSONBody, _ second: JSONBody) -> Bool {
  switch (first, second) {
  case (.null, .null): return true
  case (.bool(let a), .bool(let b)): return a == b
  case (.int(let a), .int(let b)): return a == b
  case (.double(let a), .double(let b)): return a == b
  // A whole `Double` prints without a fraction and may read back as an integer.
  case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
  case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
  case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(same)
  case (.object(let a), .object(let b)):
    guard a.count == b.count else { return false }
    let byName = Dictionary(b.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    return a.allSatisfy { member in byName[member.name].map { same(member.value, $0) } ?? false }
  default: return false
  }
}

/// At most a line per input byte (and two); the bytes are the lines' indents (two spaces a
/// level, at most 511 levels) and the input's tokens rewritten: an escape at most doubles a
/// string's bytes (`/` is written `\/`), and a number's description is at most 24 bytes (`1e14`
/// is `100000000000000`).
private func checkSize(_ text: String, of input: Data) {
  let lines = text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
  require(lines <= input.count + 2, "\(lines) lines from \(input.count) bytes")
  let bound = lines * 2 * JSONBody.depthLimit + 24 * input.count + 16
  require(
    text.utf8.count <= bound,
    "\(text.utf8.count) bytes of text from \(input.count) bytes, more than \(bound)"
  )
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzJSONBody))
