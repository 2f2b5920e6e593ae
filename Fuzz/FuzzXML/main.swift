// libFuzzer harness: the XML reader and canonical printer (`.xml`), checked against libexpat.
// Run with `scripts/fuzz.sh FuzzXML SECONDS`.
//
// Invariants, for any bytes:
// - the reader and libexpat (Fuzz/CExpat, Debian's libexpat1-dev) agree on whether the bytes are
//   a well-formed document and, when not, on the line and column of the first error, except
//   for the intended differences below;
// - the canonical text of an accepted document is a fixed point: read again, it prints itself;
// - it is at most `208 × n + 8` bytes for n bytes of input (a line per node, each indented by
//   at most 200 spaces: every node takes at least one byte of input);
// - reading and printing take at most 1 s plus 1 ms a kilobyte (AddressSanitizer's build);
// - the first input of at most 8 bytes whose first byte is 0x00 (one a process, as each takes
//   seconds; the seed `deep` is one) is instead the rest of it after `<d>` repeated 99,999 to
//   100,002 times (the second byte chooses; 10 s at most): deeper than 100,000 levels, the
//   snapshot is refused with the depth message naming the element one too deep, nothing else;
//   within the limit it prints.
//
// The intended differences (each tested in XMLTests, see Documentation/Reliability.md):
// - a DOCTYPE's internal subset is read only for where it ends and which general entities it
//   declares, and its syntax is not checked; nor is an error expat finds inside a DOCTYPE;
// - names may hold any character outside ASCII (expat checks XML 1.0's name classes);
// - the error of text before or after the root element is at its first character (expat's
//   DTD tokenizer reads names and "=" there, and stops further on);
// - a UTF-16 byte-order mark or a NUL among the first two bytes, which makes expat read the
//   document as UTF-16: the reader refuses it (expat may accept it, or refuse it elsewhere);
// - a DOCTYPE other than `<!DOCTYPE name>` with `SYSTEM "…"` or `PUBLIC "…" "…"` at most (an
//   internal subset, or a malformed one): the document is not compared.

import CExpat
import Foundation
import FuzzingChecks
import FuzzingSupport
import SnapshotTesting

@testable import MarkupSnapshotTesting

/// Whether a deep document was checked: one is, per process (each takes seconds).
nonisolated(unsafe) private var deepChecked = false

/// One run of libFuzzer, on one input.
private func fuzzXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  let deep = input.first == 0 && input.count <= 8 && !deepChecked
  if deep { deepChecked = true }
  // At most 1 s and 1 ms per kilobyte of processor time; 10 s for the deep document.
  return withinTimeBound(deep ? .seconds(10) : .milliseconds(1_000 + size / 1_000), size: size) {
    if deep {
      checkDeepDocument(input)
    } else {
      check(input, expat: cexpat_check(data, size))
    }
  }
}

private func check(_ input: [UInt8], expat: cexpat_verdict) {
  let document: MarkupDocument
  do {
    document = try XMLReader.read(input)
  } catch {
    require(!error.isTooDeep, "refused as too deep at \(input.count) bytes:\n\(show(input))")
    let (line, column) = error.lineAndColumn(in: input)
    // expat reads these as UTF-16, and may accept them; `.xml` reads only UTF-8.
    if expatReadsUTF16(input) { return }
    if expat.well_formed == 1 {
      fail(
        "the reader refuses what expat accepts, at \(line):\(column) (\(error.reason)):\n"
          + show(input)
      )
    }
    if !intendedPositionDifference(input, error: error, expat: expat),
      line != Int(expat.line) || column != Int(expat.column)
    {
      fail(
        "the reader finds the first error at \(line):\(column) (\(error.reason)), expat at "
          + "\(expat.line):\(expat.column) (\(String(cString: expat.message))):\n\(show(input))"
      )
    }
    return
  }
  if expat.well_formed == 0, !intendedVerdictDifference(input, expat: expat) {
    fail(
      "the reader accepts what expat refuses at \(expat.line):\(expat.column) "
        + "(\(String(cString: expat.message))):\n\(show(input))"
    )
  }
  checkCanonicalText(of: document, input: input)
}

private func checkCanonicalText(of document: MarkupDocument, input: [UInt8]) {
  let text = CanonicalPrinter(flavor: .xml).print(document)
  require(
    text.utf8.count <= 208 * input.count + 8,
    "\(input.count) bytes printed as \(text.utf8.count):\n\(show(input))"
  )
  let again: MarkupDocument
  do {
    again = try XMLReader.read(Array(text.utf8))
  } catch {
    fail("the canonical text is refused (\(error.reason)):\n\(show(input))\n--- text\n\(text)")
  }
  let twice = CanonicalPrinter(flavor: .xml).print(again)
  require(
    twice == text,
    "the canonical text is not a fixed point:\n\(show(input))\n--- once\n\(text)--- twice\n\(twice)"
  )
}

/// Too deep: refused with the depth message and nothing else; within the limit: printed.
private func checkDeepDocument(_ input: [UInt8]) {
  guard input.count >= 2 else { return }
  let count = MarkupDocument.maximumDepth - 1 + Int(input[1] % 4)
  var bytes: [UInt8] = []
  bytes.reserveCapacity(3 * count + input.count)
  for _ in 0..<count { bytes += [0x3C, 0x64, 0x3E] }
  bytes += input[2...]
  let (text, reason) = UnavailableSnapshot.collecting { MarkupText.xml(bytes, redacting: []) }
  if count > MarkupDocument.maximumDepth {
    require(
      reason?.hasPrefix("The XML nests elements more than 100000 levels deep (the element at "
        + "line 1, column 300001 is one too many)") == true,
      "\(count) levels: \(reason ?? "printed"):\n\(show(input))"
    )
  } else if reason == nil {
    require(text.utf8.count <= 208 * bytes.count + 8, "\(count) levels printed too long")
  }
}

// MARK: - Intended differences

/// Whether expat refuses and the reader accepts for a reason the reader means to differ on.
private func intendedVerdictDifference(_ input: [UInt8], expat: cexpat_verdict) -> Bool {
  if hasUncheckedDoctype(input) { return true }
  let offset = Int(expat.byte_index)
  if let doctype = doctypeRange(input), doctype.contains(offset) { return true }
  return isNameCharacterDifference(input, at: offset)
}

/// Whether expat stopped at a character outside ASCII that XML allows (so, one it does not take
/// as a name character, where a name goes on).
private func isNameCharacterDifference(_ input: [UInt8], at offset: Int) -> Bool {
  offset >= 0 && offset < input.count && input[offset] >= 0x80
    && XMLReader.firstInvalidCharacter(in: input)?.offset != offset
}

/// Whether both refuse, at places the reader means to name differently.
private func intendedPositionDifference(
  _ input: [UInt8],
  error: MarkupSyntaxError,
  expat: cexpat_verdict
) -> Bool {
  if hasUncheckedDoctype(input) { return true }
  let offset = Int(expat.byte_index)
  if let doctype = doctypeRange(input), doctype.contains(offset) || doctype.contains(error.offset) {
    return true
  }
  if ["text before the root element", "text after the root element"].contains(error.reason) {
    return true
  }
  return isNameCharacterDifference(input, at: offset)
}

/// Whether expat takes the document for UTF-16, whatever encoding it was given: it begins with
/// a UTF-16 byte-order mark, or a NUL is among its first two bytes. The reader refuses it as
/// not UTF-8 (and `.xml` says it is UTF-16).
private func expatReadsUTF16(_ input: [UInt8]) -> Bool {
  input.starts(with: [0xFE, 0xFF]) || input.starts(with: [0xFF, 0xFE]) || input.prefix(2).contains(0)
}

/// Whether the prolog's DOCTYPE is other than `<!DOCTYPE name>`, with `SYSTEM "…"` or
/// `PUBLIC "…" "…"` at most: one with an internal subset, or one that is malformed, which the
/// reader reads only for where it ends (expat tokenizes it, and stops where its tokenizer does).
private func hasUncheckedDoctype(_ input: [UInt8]) -> Bool {
  guard let range = doctypeRange(input) else { return false }
  guard range.upperBound <= input.count else { return true }
  var index = range.lowerBound + 9
  func spaces() -> Bool {
    let start = index
    while index < range.upperBound, [0x20, 0x09, 0x0A, 0x0D].contains(input[index]) { index += 1 }
    return index > start
  }
  func word(_ word: String) -> Bool {
    guard input.hasPrefix(word, at: index) else { return false }
    index += word.utf8.count
    return true
  }
  /// A quoted literal; a public identifier's holds only XML's `PubidChar`s.
  func literal(isPublic: Bool) -> Bool {
    guard index < range.upperBound, input[index] == 0x22 || input[index] == 0x27 else {
      return false
    }
    let quote = input[index]
    index += 1
    while index < range.upperBound, input[index] != quote {
      if isPublic, !isPublicIdentifierByte(input[index]) { return false }
      index += 1
    }
    guard index < range.upperBound else { return false }
    index += 1
    return true
  }
  guard spaces(), index < range.upperBound, input[index] != UInt8(ascii: ">") else { return true }
  // A name, as the reader reads one.
  guard !"0123456789-.".utf8.contains(input[index]) else { return true }
  while index < range.upperBound, input[index] != UInt8(ascii: ">"),
    ![0x20, 0x09, 0x0A, 0x0D].contains(input[index])
  {
    let byte = input[index]
    let isNameByte = byte >= 0x80 || byte == 0x5F || byte == 0x3A || byte == 0x2D || byte == 0x2E
      || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
    guard isNameByte else { return true }
    index += 1
  }
  if spaces() {
    if word("SYSTEM") {
      guard spaces(), literal(isPublic: false) else { return true }
    } else if word("PUBLIC") {
      guard spaces(), literal(isPublic: true), spaces(), literal(isPublic: false) else { return true }
    }
    _ = spaces()
  }
  return index != range.upperBound - 1
}

/// XML's `PubidChar`.
private func isPublicIdentifierByte(_ byte: UInt8) -> Bool {
  (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
    || byte == 0x20 || byte == 0x0D || byte == 0x0A || "-'()+,./:=?;!*#@$_%".utf8.contains(byte)
}

/// The bytes of the prolog's `<!DOCTYPE` (after a byte-order mark, whitespace, comments and
/// processing instructions: elsewhere it is no DOCTYPE) through the first `>` after it outside
/// quotes (brackets do not matter: a document with an internal subset is not compared), or to
/// the end.
private func doctypeRange(_ input: [UInt8]) -> Range<Int>? {
  var start = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  while true {
    while start < input.count, [0x20, 0x09, 0x0A, 0x0D].contains(input[start]) { start += 1 }
    if input.hasPrefix("<!--", at: start) {
      guard let end = input.offset(past: "-->", from: start + 4) else { return nil }
      start = end
    } else if input.hasPrefix("<?", at: start) {
      guard let end = input.offset(past: "?>", from: start + 2) else { return nil }
      start = end
    } else {
      break
    }
  }
  guard input.hasPrefix("<!DOCTYPE", at: start) else { return nil }
  let past = start + 9
  var quote: UInt8?
  var index = past
  while index < input.count {
    let byte = input[index]
    if let open = quote {
      if byte == open { quote = nil }
    } else if byte == 0x22 || byte == 0x27 {
      quote = byte
    } else if byte == UInt8(ascii: ">") {
      return (past - 9)..<(index + 1)
    }
    index += 1
  }
  return (past - 9)..<(input.count + 1)
}

// MARK: - Support

private func show(_ input: [UInt8]) -> String {
  String(decoding: input.prefix(2_000), as: UTF8.self).debugDescription
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzXML))
