/// Seeded edits of Swift source that keep it valid more often than not: statements and comments
/// holding the tokens the scanner must read past (nested comments, every kind of string literal,
/// regex literals, `#if`, backtick identifiers, labels, closures), inserted between lines or
/// after a bracket or comma of a call, and lines duplicated or deleted.
///
/// Whether a mutant is valid Swift is for swift-syntax to say; the differential checks compare
/// the rewriters only on mutants it parses without errors.
public struct SourceMutator {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  /// `source` with `count` edits applied one after another.
  public mutating func mutate(_ source: String, count: Int) -> String {
    var bytes = Array(source.utf8)
    for _ in 0..<count {
      bytes = mutateOnce(bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One edit of `bytes`, chosen and placed by the generator.
  public mutating func mutateOnce(_ bytes: [UInt8]) -> [UInt8] {
    let lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
    switch next(below: 8) {
    case 0, 1, 2:
      // A statement before a line, indented as that line is.
      let start = lineStarts[next(below: lineStarts.count)]
      var end = start
      while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t")
      {
        end += 1
      }
      let indent = String(decoding: bytes[start..<end], as: UTF8.self)
      let lines = statements[next(below: statements.count)]
      let text = lines.map { indent + $0 + "\n" }.joined()
      return Array(bytes[..<start]) + Array(text.utf8) + Array(bytes[start...])
    case 3, 4, 5:
      // A comment or a line break after a bracket or a comma: inside a call's argument list, or
      // between a call and its closures.
      let places = bytes.indices.filter { punctuation.contains(bytes[$0]) }
      guard !places.isEmpty else { return bytes }
      let place = places[next(below: places.count)] + 1
      let text = inlineInsertions[next(below: inlineInsertions.count)]
      return Array(bytes[..<place]) + Array(text.utf8) + Array(bytes[place...])
    case 6:
      // A line twice.
      let line = next(below: lineStarts.count)
      let start = lineStarts[line]
      let end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
      return Array(bytes[..<end]) + (end == bytes.count ? [UInt8(ascii: "\n")] : [])
        + Array(bytes[start..<end]) + Array(bytes[end...])
    default:
      // A line gone.
      let line = next(below: lineStarts.count)
      let start = lineStarts[line]
      let end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
      return Array(bytes[..<start]) + Array(bytes[end...])
    }
  }

  /// SplitMix64: small, fast and the same on every machine, so a seed names a mutant.
  private mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Int(z % UInt64(bound))
  }
}

private let punctuation: Set<UInt8> = [
  UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: "}"),
]

private let inlineInsertions = [
  " /* ) } \" /* nested { */ ( */ ",
  " // ) } \" \\(\n",
  "\n",
  " ",
  "/**/",
]

/// Statements, one line each, that the line's indentation is put before.
private let statements: [[String]] = [
  ["// a comment with \") } \\\"\" in it"],
  ["/* a /* nested */ block ) } \" */"],
  ["_ = \"text \\(1 + (\"}\".count)) more { (\""],
  ["_ = #\"raw \\#(\"x\") \"quoted\" \\(not) } \"#"],
  ["_ = ##\"raw \"# still ) \"##"],
  ["_ = \"\"\"", "  multi \\(\")\") { line", "  \"\"\""],
  ["_ = #\"\"\"", "  raw \"\"\" \\#(1) \\(not) }", "  \"\"\"#"],
  ["_ = #/[a-z]+\\/x)/#"],
  ["_ = /a+b/"],
  ["_ = [4, 2].map { $0 / 2 }.reduce(0, +) / 1"],
  ["#if DEBUG", "let debugOnly = \"}\"", "#elseif os(Linux)", "let linuxOnly = 1", "#endif"],
  ["let `class` = \"{\""],
  ["_ = { () -> Int in 1 }()"],
  ["label: do { break label }"],
  ["_ = \"\\u{7B}\\(\"\\(\"nested\")\")\""],
]
