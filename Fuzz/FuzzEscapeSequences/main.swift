// libFuzzer harness: a command's output as `.output` (`EscapeSequenceScanner.strippingEscapes`)
// and `.terminal` (`TerminalSVG`, the escape scanner driving a `TerminalScreen`) show it. Run with
// `scripts/fuzz.sh FuzzEscapeSequences SECONDS`.
//
// The output of a program under test is any bytes. Invariants, for any bytes:
// - `.output`'s text holds no escape byte, is at most 3 bytes a byte of output (an invalid byte
//   becomes U+FFFD), is the output itself when it holds no escape and is UTF-8, and is a fixed
//   point (stripping it again changes nothing);
// - `.terminal`'s image, with its two annotation lines, is text an XML reader takes: no control
//   character but line feeds, no U+FFFE or U+FFFF, `<` only in its own tags and `&` only in
//   `&amp;`, `&lt;` and `&gt;`; it has at most one row per byte of output and 28 more (the
//   annotations, the screen's 24 rows and the pending one), and at most 32 KiB and 400 bytes per
//   byte of output;
// - differential, on the output rewritten from the input into printable ASCII, line feeds, SGR
//   sequences, an OSC title and a character-set escape: `.output` gives that text without the
//   sequences, and `.terminal`'s rows are its lines cut every 80 columns, between the two
//   annotations;
// - each input takes at most 500 ms of processor time.

import Foundation
import FuzzingChecks
import FuzzingSupport

@testable import CommandSnapshotTesting

/// One run of libFuzzer, on one input.
private func fuzzEscapeSequences(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
  return withinTimeBound(.milliseconds(500), size: size) {
    checkOutput(input)
    checkTerminal(input)
    checkAgreement(input)
  }
}

// MARK: - `.output`

private func checkOutput(_ input: [UInt8]) {
  let text = EscapeSequenceScanner.strippingEscapes(from: input)
  require(!text.utf8.contains(0x1B), "an escape byte is left in \(text.debugDescription)")
  require(
    text.utf8.count <= 3 * input.count,
    "\(text.utf8.count) bytes of text from \(input.count) bytes"
  )
  if !input.contains(0x1B), let plain = String(validating: input, as: UTF8.self) {
    require(
      text.utf8.elementsEqual(plain.utf8),
      "output without escapes became \(text.debugDescription)"
    )
  }
  let again = EscapeSequenceScanner.strippingEscapes(from: Array(text.utf8))
  require(
    again.utf8.elementsEqual(text.utf8),
    "stripped twice, \(text.debugDescription) became \(again.debugDescription)"
  )
}

// MARK: - `.terminal`

private func terminalImage(_ output: [UInt8]) -> String {
  var svg = TerminalSVG()
  svg.addAnnotation("$ fuzz")
  svg.addOutput(output)
  svg.addAnnotation("[exit 0]")
  return svg.document()
}

private func checkTerminal(_ input: [UInt8]) {
  let document = terminalImage(input)
  let scalars = Array(document.unicodeScalars)
  for (offset, scalar) in scalars.enumerated() {
    let value = scalar.value
    require(
      value == 0x0A
        || (value >= 0x20 && value != 0x7F && !(0x80...0x9F).contains(value))
          && value != 0xFFFE && value != 0xFFFF,
      "the image holds U+\(String(value, radix: 16, uppercase: true)) at scalar \(offset)"
    )
    if scalar == "<" {
      let rest = String(String.UnicodeScalarView(scalars[(offset + 1)...].prefix(6)))
      require(
        ["svg ", "rect ", "g ", "text ", "/text>", "/g>", "/svg>"].contains { rest.hasPrefix($0) },
        "a < that starts no tag of the image: <\(rest)…"
      )
    }
    if scalar == "&" {
      let rest = String(String.UnicodeScalarView(scalars[(offset + 1)...].prefix(4)))
      require(
        ["amp;", "lt;", "gt;"].contains { rest.hasPrefix($0) },
        "a & that starts no entity: &\(rest)…"
      )
    }
  }
  let rows = rowCount(document)
  require(rows <= input.count + 28, "\(rows) rows from \(input.count) bytes")
  require(
    document.utf8.count <= 32 * 1024 + 400 * input.count,
    "an image of \(document.utf8.count) bytes from \(input.count) bytes"
  )
}

/// The rows the image holds, from its height.
private func rowCount(_ document: String) -> Int {
  let bytes = Array(document.utf8)
  guard let start = find(Array("height=\"".utf8), in: bytes, from: 0),
    let height = Int(number(in: bytes, at: start))
  else { fail("the image has no height") }
  return (height - 2 * TerminalSVG.padding) / TerminalSVG.rowHeight
}

/// Where `pattern` ends in `bytes`, searching from `start`.
private func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
  guard pattern.count <= bytes.count else { return nil }
  var index = start
  while index + pattern.count <= bytes.count {
    if bytes[index..<index + pattern.count].elementsEqual(pattern) { return index + pattern.count }
    index += 1
  }
  return nil
}

/// The digits and point at `start`.
private func number(in bytes: [UInt8], at start: Int) -> String {
  let digits = bytes[start...].prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
  return String(decoding: digits, as: UTF8.self)
}

/// The text of each row of the image, from its `<text>` elements placed by their `x` and `y`
/// (every character of the rewritten output takes one cell).
private func rowTexts(_ document: String) -> [String] {
  var rows = [[Character]](repeating: [], count: rowCount(document))
  let bytes = Array(document.utf8)
  var position = 0
  while let xStart = find(Array("<text x=\"".utf8), in: bytes, from: position) {
    let x = Double(number(in: bytes, at: xStart))!
    let yStart = find(Array("y=\"".utf8), in: bytes, from: xStart)!
    let y = Int(number(in: bytes, at: yStart))!
    let contentStart = find([UInt8(ascii: ">")], in: bytes, from: yStart)!
    let contentEnd = find(Array("</text>".utf8), in: bytes, from: contentStart)!
    let content = String(decoding: bytes[contentStart..<contentEnd - 7], as: UTF8.self)
      .replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
    let row = (y - TerminalSVG.padding - TerminalSVG.fontSize) / TerminalSVG.rowHeight
    var column = Int(
      ((x * 10 - Double(TerminalSVG.padding * 10)) / Double(TerminalSVG.cellWidthTenths))
        .rounded()
    )
    for character in content {
      while rows[row].count <= column { rows[row].append(" ") }
      rows[row][column] = character
      column += 1
    }
    position = contentEnd
  }
  return rows.map { row in
    var text = String(row)
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}

// MARK: - `.output` and `.terminal` agree

private let printable = Array(
  " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz~".utf8
)
private let sequences: [[UInt8]] = [
  "\u{1B}[1m", "\u{1B}[31m", "\u{1B}[0m", "\u{1B}[4m", "\u{1B}[38;5;200m", "\u{1B}[m",
  "\u{1B}]0;title\u{7}", "\u{1B}(B",
].map { Array($0.utf8) }

/// The input rewritten, and the text it shows: each byte below 64 a printable character, then
/// a line feed, a sequence (which shows nothing), or a run of 2 to 96 `w`, and the rest
/// printable again.
private func rewritten(_ input: [UInt8]) -> (output: [UInt8], text: [UInt8]) {
  var output: [UInt8] = []
  var text: [UInt8] = []
  for byte in input {
    switch byte {
    case 64..<72:
      output.append(0x0A)
      text.append(0x0A)
    case 72..<80:
      output += sequences[Int(byte - 72)]
    case 80..<128:
      let run = [UInt8](repeating: UInt8(ascii: "w"), count: Int(byte - 79) * 2)
      output += run
      text += run
    default:
      let character = printable[Int(byte) % printable.count]
      output.append(character)
      text.append(character)
    }
  }
  return (output, text)
}

private func checkAgreement(_ input: [UInt8]) {
  let (output, text) = rewritten(input)
  let stripped = EscapeSequenceScanner.strippingEscapes(from: output)
  require(
    stripped.utf8.elementsEqual(text),
    "\(String(decoding: output, as: UTF8.self).debugDescription) is shown by .output as "
      + "\(stripped.debugDescription)"
  )
  var expected = ["$ fuzz"]
  var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
  if lines.last?.isEmpty == true { lines.removeLast() }
  for line in lines {
    var start = line.startIndex
    repeat {
      let end = min(start + TerminalSVG.columns, line.endIndex)
      var row = String(decoding: line[start..<end], as: UTF8.self)
      while row.hasSuffix(" ") { row.removeLast() }
      expected.append(row)
      start = end
    } while start < line.endIndex
  }
  expected.append("[exit 0]")
  let rows = rowTexts(terminalImage(output))
  require(
    rows == expected,
    "\(String(decoding: output, as: UTF8.self).debugDescription) is drawn by .terminal as "
      + "\(rows), not \(expected)"
  )
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzEscapeSequences))
