/// One token of Swift source, as ``SwiftScanner`` reads it: where it stands, what kind it is and,
/// for brackets, where its partner is.
struct SwiftToken {
  enum Kind: Equatable {
    /// An identifier or a keyword, backticks included (`` `default` ``), `$0`, `_`.
    case word
    /// A number literal.
    case number
    /// A string literal of any kind, interpolations included.
    case string
    /// A regex literal, `/…/` or `#/…/#`.
    case regex
    /// `#if`, `#endif`, `#sourceLocation`, `#expect` and other `#` names.
    case pound
    /// `@` and an attribute's name.
    case attribute
    /// An operator: `+`, `==`, `?`, `!`, `->`, `...`.
    case symbol
    /// One of `( ) [ ] { } , : ; . \` and any other single byte.
    case punctuation
  }

  var kind: Kind
  /// The byte range of the token in the scanned text.
  var start: Int
  var end: Int
  /// Whether the whitespace and comments before the token hold a line break.
  var lineBreakBefore: Bool
  /// For a bracket, the index of its partner in the token list (filled by the bracket matcher).
  var partner: Int?
  /// For a string literal without interpolation, the text it stands for.
  var literalValue: String?
}

/// Where the scanner stopped, unable to read the text as Swift.
struct SwiftScanError: Error, Equatable {
  /// The byte offset of the problem.
  var offset: Int
  var reason: String
}

/// A lexer for the Swift that can stand between a call's start and the end of its trailing
/// closures, with a bracket matcher over its tokens.
///
/// It reads comments (line, and block comments nested to any depth), string literals of every
/// kind (single-line, multi-line, raw with any number of `#`, interpolations nested to any depth),
/// regex literals (`#/…/#`, and bare `/…/` where the Swift 6 parser reads one: not after an
/// operand, not starting with a space, closed on its line, with balanced parentheses), `#`
/// directives, backtick identifiers, attributes, numbers and operators. It does not parse: it
/// knows no grammar beyond matching `(`, `[` and `{` with their partners, which is all a call's
/// extent needs. Text it cannot read (an unterminated literal or comment, an unmatched bracket,
/// a bad escape in a literal) is a ``SwiftScanError``, never a crash.
///
/// - Complexity: O(*n*) for *n* bytes.
struct SwiftScanner {
  private let bytes: [UInt8]
  private var index = 0
  private(set) var tokens: [SwiftToken] = []
  /// The end of the line on which a bare regex was last sought up to the line's end in vain: a
  /// `/` before it cannot start one either, so the search is not repeated (linear time on a line
  /// of many `/`).
  private var noBareRegexBefore = 0

  /// Scans `bytes` whole, or throws at its first problem.
  static func scan(_ bytes: [UInt8]) throws(SwiftScanError) -> [SwiftToken] {
    var scanner = SwiftScanner(bytes: bytes)
    if bytes.starts(with: [UInt8(ascii: "#"), UInt8(ascii: "!")]) {
      while scanner.index < bytes.count, !isLineBreak(bytes[scanner.index]) { scanner.index += 1 }
    }
    while let token = try scanner.nextToken(after: scanner.tokens.last) {
      scanner.tokens.append(token)
    }
    try matchBrackets(&scanner.tokens, in: bytes)
    return scanner.tokens
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  // MARK: - Tokens

  /// The next token, or `nil` at the end of the text; `previous` decides whether `/` starts a
  /// regex.
  private mutating func nextToken(after previous: SwiftToken?) throws(SwiftScanError) -> SwiftToken?
  {
    let lineBreak = try skipTrivia()
    guard index < bytes.count else { return nil }
    let start = index
    let first = bytes[index]
    var kind = SwiftToken.Kind.punctuation
    var literalValue: String?
    switch first {
    case UInt8(ascii: "\""):
      literalValue = try scanString(pounds: 0)
      kind = .string
    case UInt8(ascii: "#"):
      var pounds = 0
      while byte(at: index + pounds) == UInt8(ascii: "#") { pounds += 1 }
      if byte(at: index + pounds) == UInt8(ascii: "\"") {
        index += pounds
        literalValue = try scanString(pounds: pounds)
        kind = .string
      } else if byte(at: index + pounds) == UInt8(ascii: "/") {
        try scanExtendedRegex(pounds: pounds)
        kind = .regex
      } else if pounds == 1, let next = byte(at: index + 1), isIdentifierStart(next) {
        index += 1
        scanIdentifierBody()
        kind = .pound
      } else {
        index += 1
      }
    case UInt8(ascii: "@"):
      index += 1
      if let next = byte(at: index), isIdentifierStart(next) { scanIdentifierBody() }
      kind = .attribute
    case UInt8(ascii: "`"):
      guard let close = bytes[(index + 1)...].firstIndex(where: { $0 == UInt8(ascii: "`") }),
        !bytes[(index + 1)..<close].contains(where: isLineBreak)
      else { throw SwiftScanError(offset: index, reason: "an unterminated backtick identifier") }
      index = close + 1
      kind = .word
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      scanNumber()
      kind = .number
    case UInt8(ascii: "/"):
      if !endsOperand(previous, in: bytes), try scanBareRegex() {
        kind = .regex
      } else {
        scanOperator()
        kind = .symbol
      }
    case UInt8(ascii: "."):
      if byte(at: index + 1) == UInt8(ascii: ".") {
        scanOperator()
        kind = .symbol
      } else {
        index += 1
      }
    default:
      if isIdentifierStart(first) || first == UInt8(ascii: "$") {
        index += 1
        scanIdentifierBody()
        kind = .word
      } else if isOperatorByte(first) {
        scanOperator()
        kind = .symbol
      } else {
        index += 1
      }
    }
    return SwiftToken(
      kind: kind,
      start: start,
      end: index,
      lineBreakBefore: lineBreak,
      literalValue: literalValue
    )
  }

  /// Skips whitespace and comments; returns whether they held a line break.
  private mutating func skipTrivia() throws(SwiftScanError) -> Bool {
    var lineBreak = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0B || byte == 0x0C
        || byte == 0
      {
        index += 1
      } else if isLineBreak(byte) {
        lineBreak = true
        index += 1
      } else if byte == UInt8(ascii: "/"), self.byte(at: index + 1) == UInt8(ascii: "/") {
        while index < bytes.count, !isLineBreak(bytes[index]) { index += 1 }
      } else if byte == UInt8(ascii: "/"), self.byte(at: index + 1) == UInt8(ascii: "*") {
        let start = index
        var depth = 0
        repeat {
          guard index + 1 < bytes.count else {
            throw SwiftScanError(offset: start, reason: "an unterminated block comment")
          }
          if bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "*") {
            depth += 1
            index += 2
          } else if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
            depth -= 1
            index += 2
          } else {
            if isLineBreak(bytes[index]) { lineBreak = true }
            index += 1
          }
        } while depth > 0
      } else if byte == 0xEF, self.byte(at: index + 1) == 0xBB, self.byte(at: index + 2) == 0xBF {
        index += 3  // A byte order mark.
      } else {
        break
      }
    }
    return lineBreak
  }

  private mutating func scanIdentifierBody() {
    while let byte = byte(at: index), isIdentifierByte(byte) { index += 1 }
  }

  /// A number: digits, letters and `_`, a `.` followed by a digit, and an exponent's sign.
  private mutating func scanNumber() {
    let hex = byte(at: index + 1) == UInt8(ascii: "x")
    while let byte = byte(at: index) {
      if isIdentifierByte(byte) {
        index += 1
        let exponent = hex ? (byte | 0x20) == UInt8(ascii: "p") : (byte | 0x20) == UInt8(ascii: "e")
        if exponent, let sign = self.byte(at: index),
          sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")
        {
          index += 1
        }
      } else if byte == UInt8(ascii: "."), let next = self.byte(at: index + 1),
        next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")
      {
        index += 1
      } else {
        return
      }
    }
  }

  /// An operator: a run of operator bytes (with `.` only when it starts with one), ending before
  /// a comment.
  private mutating func scanOperator() {
    let dotted = bytes[index] == UInt8(ascii: ".")
    repeat {
      index += 1
    } while index < bytes.count
      && (isOperatorByte(bytes[index]) || (dotted && bytes[index] == UInt8(ascii: ".")))
      && !startsComment(at: index)
  }

  // MARK: - String literals

  /// Scans a string literal from its opening quote, `pounds` `#` already read; returns the text it
  /// stands for, or `nil` when it has interpolations.
  private mutating func scanString(pounds: Int) throws(SwiftScanError) -> String? {
    let opening = index - pounds
    let opensMultiLine =
      has(tripleQuote, at: index)
      && !(pounds > 0 && closesOnItsLine(pounds: pounds, from: index + 2))
    if opensMultiLine {
      index += 3
      return try scanMultiLineString(pounds: pounds, opening: opening)
    }
    index += 1
    var value: [UInt8]? = []
    while true {
      guard index < bytes.count, !isLineBreak(bytes[index]) else {
        throw SwiftScanError(offset: opening, reason: "an unterminated string literal")
      }
      if bytes[index] == UInt8(ascii: "\""), closes(pounds: pounds, at: index + 1) {
        index += 1 + pounds
        return value.map { String(decoding: $0, as: UTF8.self) }
      }
      if bytes[index] == UInt8(ascii: "\\"), closes(pounds: pounds, at: index + 1) {
        try scanEscape(pounds: pounds, into: &value, multiLine: false)
      } else {
        value?.append(bytes[index])
        index += 1
      }
    }
  }

  /// Whether a raw literal that opens with three quotes closes on the same line, as in `#"""#`
  /// (one quote) or `#"""""#` (three): Swift reads such a literal as a single-line one. `start`
  /// is the third quote; any quote after it followed by the delimiter closes the literal.
  private func closesOnItsLine(pounds: Int, from start: Int) -> Bool {
    var position = start
    while let byte = byte(at: position), !isLineBreak(byte) {
      position += 1
      if byte == UInt8(ascii: "\""), closes(pounds: pounds, at: position) { return true }
    }
    return false
  }

  /// Scans a multi-line literal from just after its opening `"""`.
  private mutating func scanMultiLineString(
    pounds: Int,
    opening: Int
  ) throws(SwiftScanError) -> String? {
    while let byte = byte(at: index), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
      index += 1
    }
    guard let first = byte(at: index), isLineBreak(first) else {
      throw SwiftScanError(
        offset: opening,
        reason: "a multi-line string literal whose text does not start on a new line"
      )
    }
    index += has(lineFeedAfterReturn, at: index) ? 2 : 1
    let contentStart = index
    var hasInterpolation = false
    while true {
      guard index < bytes.count else {
        throw SwiftScanError(offset: opening, reason: "an unterminated string literal")
      }
      if has(tripleQuote, at: index), closes(pounds: pounds, at: index + 3) {
        break
      }
      if bytes[index] == UInt8(ascii: "\\"), closes(pounds: pounds, at: index + 1) {
        var ignored: [UInt8]? = nil
        if byte(at: index + 1 + pounds) == UInt8(ascii: "(") { hasInterpolation = true }
        try scanEscape(pounds: pounds, into: &ignored, multiLine: true)
      } else {
        index += 1
      }
    }
    let closing = index
    index += 3 + pounds
    var lineStart = closing
    while lineStart > contentStart, !isLineBreak(bytes[lineStart - 1]) { lineStart -= 1 }
    let indentation = bytes[lineStart..<closing]
    guard indentation.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else {
      throw SwiftScanError(
        offset: closing,
        reason: "a multi-line string literal whose closing delimiter does not start a line"
      )
    }
    guard !hasInterpolation else { return nil }
    return try multiLineValue(
      content: contentStart..<lineStart,
      indentation: Array(indentation),
      pounds: pounds
    )
  }

  /// The text of a multi-line literal's lines: each line without the closing delimiter's
  /// indentation, the last line break dropped, then the escapes read.
  private func multiLineValue(
    content: Range<Int>,
    indentation: [UInt8],
    pounds: Int
  ) throws(SwiftScanError) -> String {
    var text: [UInt8] = []
    var lineStart = content.lowerBound
    while lineStart < content.upperBound {
      var lineEnd = lineStart
      while lineEnd < content.upperBound, !isLineBreak(bytes[lineEnd]) { lineEnd += 1 }
      let line = bytes[lineStart..<lineEnd]
      if line.starts(with: indentation) {
        text += line.dropFirst(indentation.count)
      } else if !indentation.starts(with: line) {
        throw SwiftScanError(
          offset: lineStart,
          reason: "a line of a multi-line string literal indented less than its closing delimiter"
        )
      }
      var next = lineEnd
      if next < content.upperBound {
        next += has(lineFeedAfterReturn, at: next) ? 2 : 1
      }
      if next < content.upperBound { text += bytes[lineEnd..<next] }
      lineStart = next
    }
    var reader = SwiftScanner(bytes: text)
    var value: [UInt8]? = []
    while reader.index < text.count {
      if text[reader.index] == UInt8(ascii: "\\"), reader.closes(pounds: pounds, at: reader.index + 1)
      {
        do {
          try reader.scanEscape(pounds: pounds, into: &value, multiLine: true)
        } catch {
          throw SwiftScanError(offset: content.lowerBound, reason: error.reason)
        }
      } else {
        value?.append(text[reader.index])
        reader.index += 1
      }
    }
    return String(decoding: value ?? [], as: UTF8.self)
  }

  /// Reads an escape from its backslash: appends what it stands for to `value`, or sets `value`
  /// to `nil` for an interpolation (which it scans through to its closing parenthesis).
  private mutating func scanEscape(
    pounds: Int,
    into value: inout [UInt8]?,
    multiLine: Bool
  ) throws(SwiftScanError) {
    let start = index
    index += 1 + pounds
    guard let byte = byte(at: index) else {
      throw SwiftScanError(offset: start, reason: "an unterminated string literal")
    }
    index += 1
    switch byte {
    case UInt8(ascii: "n"): value?.append(0x0A)
    case UInt8(ascii: "t"): value?.append(0x09)
    case UInt8(ascii: "r"): value?.append(0x0D)
    case UInt8(ascii: "0"): value?.append(0)
    case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): value?.append(byte)
    case UInt8(ascii: "u"):
      guard self.byte(at: index) == UInt8(ascii: "{"),
        let close = bytes[index...].prefix(10).firstIndex(of: UInt8(ascii: "}")),
        close > index + 1,
        let scalarValue = UInt32(String(decoding: bytes[(index + 1)..<close], as: UTF8.self),
          radix: 16),
        let scalar = Unicode.Scalar(scalarValue)
      else { throw SwiftScanError(offset: start, reason: "an invalid \\u{…} escape") }
      value?.append(contentsOf: Array(String(Character(scalar)).utf8))
      index = close + 1
    case UInt8(ascii: "("):
      value = nil
      try scanInterpolation(from: start)
    case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0A, 0x0D:
      // A line continuation: the backslash, spaces and the line break stand for nothing.
      guard multiLine else {
        throw SwiftScanError(offset: start, reason: "an invalid escape in a string literal")
      }
      index -= 1
      while let space = self.byte(at: index), space == UInt8(ascii: " ") || space == UInt8(ascii: "\t")
      {
        index += 1
      }
      guard let lineBreak = self.byte(at: index), isLineBreak(lineBreak) else {
        throw SwiftScanError(offset: start, reason: "an invalid escape in a string literal")
      }
      index += has(lineFeedAfterReturn, at: index) ? 2 : 1
    default:
      throw SwiftScanError(offset: start, reason: "an invalid escape in a string literal")
    }
  }

  /// Scans an interpolation's code, from just after its `(` to just after its `)`.
  private mutating func scanInterpolation(from start: Int) throws(SwiftScanError) {
    var depth = 1
    var previous: SwiftToken?
    while depth > 0 {
      guard let token = try nextToken(after: previous) else {
        throw SwiftScanError(offset: start, reason: "an unterminated string interpolation")
      }
      if token.kind == .punctuation {
        switch bytes[token.start] {
        case UInt8(ascii: "("): depth += 1
        case UInt8(ascii: ")"): depth -= 1
        default: break
        }
      }
      previous = token
    }
  }

  // MARK: - Regex literals

  /// Scans `#/…/#` from its first `#`.
  private mutating func scanExtendedRegex(pounds: Int) throws(SwiftScanError) {
    let start = index
    index += pounds + 1
    let multiLine = byte(at: index).map(isLineBreak) ?? false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") {
        index += 2
      } else if byte == UInt8(ascii: "/"), closes(pounds: pounds, at: index + 1) {
        index += 1 + pounds
        return
      } else if isLineBreak(byte), !multiLine {
        break
      } else {
        index += 1
      }
    }
    throw SwiftScanError(offset: start, reason: "an unterminated regex literal")
  }

  /// Scans a bare `/…/` regex from its `/` when the text there reads as one; otherwise leaves the
  /// position and returns `false`, for the `/` to be an operator.
  private mutating func scanBareRegex() throws(SwiftScanError) -> Bool {
    guard index >= noBareRegexBefore, let first = byte(at: index + 1),
      first != UInt8(ascii: " "), first != UInt8(ascii: "\t"), !isLineBreak(first),
      first != UInt8(ascii: "/"), first != UInt8(ascii: "*")
    else { return false }
    var cursor = index + 1
    var depth = 0
    while cursor < bytes.count, !isLineBreak(bytes[cursor]) {
      switch bytes[cursor] {
      case UInt8(ascii: "\\"):
        cursor += 1
      case UInt8(ascii: "("):
        depth += 1
      case UInt8(ascii: ")"):
        depth -= 1
        if depth < 0 { return false }
      case UInt8(ascii: "/"):
        let last = bytes[cursor - 1]
        guard last != UInt8(ascii: " "), last != UInt8(ascii: "\t") else { return false }
        index = cursor + 1
        return true
      default:
        break
      }
      cursor += 1
    }
    noBareRegexBefore = cursor
    return false
  }

  // MARK: - Bytes

  private func byte(at offset: Int) -> UInt8? {
    offset < bytes.count ? bytes[offset] : nil
  }

  /// Whether `pounds` `#` follow at `offset`.
  private func closes(pounds: Int, at offset: Int) -> Bool {
    guard offset + pounds <= bytes.count else { return false }
    var index = offset
    while index < offset + pounds {
      guard bytes[index] == UInt8(ascii: "#") else { return false }
      index += 1
    }
    return true
  }

  /// Whether `literal` stands at `offset`. A loop, not a slice's `starts(with:)`: tests run in
  /// debug builds, where that generic call costs more than the byte it looks at, and the scanner
  /// asks this at every byte of a string literal.
  private func has(_ literal: [UInt8], at offset: Int) -> Bool {
    guard offset + literal.count <= bytes.count else { return false }
    var index = 0
    while index < literal.count {
      guard bytes[offset + index] == literal[index] else { return false }
      index += 1
    }
    return true
  }

  private func startsComment(at offset: Int) -> Bool {
    bytes[offset] == UInt8(ascii: "/")
      && (byte(at: offset + 1) == UInt8(ascii: "/") || byte(at: offset + 1) == UInt8(ascii: "*"))
  }
}

private let tripleQuote: [UInt8] = Array(#"""""#.utf8)
private let lineFeedAfterReturn: [UInt8] = [0x0D, 0x0A]

/// Whether a `/` after `token` is a binary operator rather than the start of a regex: the token
/// ends an operand (a name, a literal, a closing bracket or a postfix `?` or `!`).
private func endsOperand(_ token: SwiftToken?, in bytes: [UInt8]) -> Bool {
  guard let token else { return false }
  switch token.kind {
  case .number, .string, .regex, .attribute:
    return true
  case .word:
    let word = String(decoding: bytes[token.start..<token.end], as: UTF8.self)
    return !keywordsBeforeAnOperand.contains(word)
  case .pound:
    return false
  case .symbol:
    let last = bytes[token.end - 1]
    return token.end - token.start == 1 && (last == UInt8(ascii: "?") || last == UInt8(ascii: "!"))
  case .punctuation:
    let byte = bytes[token.start]
    return byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
  }
}

/// Keywords after which an operand starts, so that a `/` there opens a regex.
private let keywordsBeforeAnOperand: Set<String> = [
  "return", "throw", "case", "in", "where", "if", "guard", "while", "try", "await", "else",
  "switch", "repeat", "is", "as", "yield", "for",
]

func isLineBreak(_ byte: UInt8) -> Bool {
  byte == 0x0A || byte == 0x0D
}

private func isIdentifierStart(_ byte: UInt8) -> Bool {
  (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    || byte == UInt8(ascii: "_") || byte >= 0x80
}

private func isIdentifierByte(_ byte: UInt8) -> Bool {
  isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
}

private func isOperatorByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"),
    UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"),
    UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "?"):
    return true
  default:
    return false
  }
}

/// Pairs every `(`, `[` and `{` with its partner, or throws at the first that has none.
private func matchBrackets(_ tokens: inout [SwiftToken], in bytes: [UInt8]) throws(SwiftScanError)
{
  var open: [Int] = []
  for index in tokens.indices where tokens[index].kind == .punctuation {
    let byte = bytes[tokens[index].start]
    switch byte {
    case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
      open.append(index)
    case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
      guard let opener = open.popLast(), closer(of: bytes[tokens[opener].start]) == byte else {
        throw SwiftScanError(offset: tokens[index].start, reason: "an unmatched bracket")
      }
      tokens[opener].partner = index
      tokens[index].partner = opener
    default:
      break
    }
  }
  if let unmatched = open.first {
    throw SwiftScanError(offset: tokens[unmatched].start, reason: "an unmatched bracket")
  }
}

private func closer(of opener: UInt8) -> UInt8 {
  switch opener {
  case UInt8(ascii: "("): UInt8(ascii: ")")
  case UInt8(ascii: "["): UInt8(ascii: "]")
  default: UInt8(ascii: "}")
  }
}
