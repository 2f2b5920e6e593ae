/// A function call as the scanner reads it: byte offsets, in the scanned text, of its parts.
struct ScannedCall {
  /// A closure literal: `{ … }`.
  struct Closure {
    var start: Int
    var end: Int
    /// The text it returns when its body is a single string literal without interpolation.
    var literalText: String?
  }

  /// An argument inside the parentheses: its label, its expression and its comma.
  struct Argument {
    var start: Int
    var expressionEnd: Int
    /// After the comma that follows it, if one does.
    var end: Int
    /// The closure the argument is, when it is exactly a closure literal.
    var closure: Closure?
  }

  /// A labelled trailing closure after the first: `label: { … }`.
  struct LabeledClosure {
    var start: Int
    var label: String
    var closure: Closure
  }

  /// The first byte of the called expression.
  var start: Int
  /// The text of the called expression (`assertInlineSnapshot`, `self.assertMacro`).
  var callee: String
  /// The end of the called expression.
  var calleeEnd: Int
  /// Where `#column` points: after the called expression and what follows it on its line.
  var position: Int
  /// The end of the closing parenthesis, when the call has parentheses.
  var rightParenEnd: Int?
  var arguments: [Argument]
  var trailingClosure: Closure?
  var additionalTrailingClosures: [LabeledClosure]
  /// The end of the call's last closure or parenthesis.
  var end: Int
}

/// Reads a call from the token where its arguments start, refusing (with a ``CallRefusal`` that
/// names the shape and where it is) anything it cannot read with certainty: a `(` or `{` that does
/// not follow a callee on its line, a call in an `if`, `guard`, `while`, `for` or `switch` head or
/// in a declaration (where a `{` is a body, not a closure), a `#if` among the arguments, an
/// argument without an expression, an argument that binds a name (`let x`: a pattern of a `case`).
/// A comma after the last argument (`f(a, b,)`, Swift 6.1) is read as the compiler reads it.
struct CallReader {
  let source: ParsedSource

  private var tokens: [SwiftToken] { source.tokens }

  /// The call whose arguments or first closure open at token `opener`, or `nil` when the reader
  /// refuses it.
  func call(openingAt opener: Int) -> ScannedCall? {
    try? read(openingAt: opener)
  }

  /// The call whose arguments or first closure open at token `opener`; throws the shape that
  /// stopped the reader.
  func read(openingAt opener: Int) throws(CallRefusal) -> ScannedCall {
    guard opener > 0, !tokens[opener].lineBreakBefore else {
      throw refusal("a `(` or `{` that starts its line, so no called expression precedes it", opener)
    }
    let last = opener - 1
    guard endsCallee(last, before: opener) else {
      throw refusal("a `(` or `{` that follows no called expression it can read", last)
    }
    guard let start = calleeStart(endingAt: last) else {
      throw refusal("a called expression it cannot delimit", last)
    }
    guard !inStatementHead(callee: start) else {
      throw refusal(
        "a call in a statement's head or a declaration, where a `{` after it is a body", start)
    }
    var call = ScannedCall(
      start: tokens[start].start,
      callee: source.text(tokens[start].start..<tokens[last].end),
      calleeEnd: tokens[last].end,
      position: tokens[opener].start,
      rightParenEnd: nil,
      arguments: [],
      trailingClosure: nil,
      additionalTrailingClosures: [],
      end: tokens[last].end
    )
    var next = opener
    if isPunctuation(opener, "(") {
      guard let close = tokens[opener].partner else {
        throw refusal("a `(` without its `)`", opener)
      }
      let arguments = try arguments(in: opener, close)
      call.arguments = arguments
      call.rightParenEnd = tokens[close].end
      call.end = tokens[close].end
      next = close + 1
      // A `{` after the `)` is a trailing closure, also on a later line (a block statement
      // cannot start with `{`).
      guard next < tokens.count, isPunctuation(next, "{") else { return call }
    }
    guard let closure = closureLiteral(at: next) else {
      throw refusal("a `{` without its `}`", next)
    }
    call.trailingClosure = closure
    call.end = closure.end
    next = tokens[next].partner! + 1
    while next + 2 < tokens.count, tokens[next].kind == .word, isPunctuation(next + 1, ":"),
      isPunctuation(next + 2, "{")
    {
      let label = source.text(tokens[next].start..<tokens[next].end)
      guard label != "default", label != "case", let closure = closureLiteral(at: next + 2) else { break }
      call.additionalTrailingClosures.append(
        ScannedCall.LabeledClosure(start: tokens[next].start, label: label, closure: closure)
      )
      call.end = closure.end
      next = tokens[next + 2].partner! + 1
    }
    return call
  }

  // MARK: - The callee

  /// Whether the token at `index` can end the called expression of a call whose arguments or
  /// closure start at `opener`.
  private func endsCallee(_ index: Int, before opener: Int) -> Bool {
    let token = tokens[index]
    let word = source.text(token.start..<token.end)
    let parenthesized = isPunctuation(opener, "(")
    switch token.kind {
    case .word:
      if isMemberName(index) { return true }
      if word == "init" { return false }
      if !parenthesized, accessorNames.contains(word) { return false }
      return !keywords.contains(word)
    case .punctuation:
      return parenthesized && (isPunctuation(index, ")") || isPunctuation(index, "]"))
    case .symbol:
      // `f?(x)`, `f!(x)`, `Array<Int>(x)`: a postfix operator or a generic's end, touching.
      return parenthesized && token.end == tokens[opener].start
        && (word == "?" || word == "!" || word.allSatisfy { $0 == ">" })
    case .number, .string, .regex, .pound, .attribute:
      return false
    }
  }

  /// The index of the called expression's first token, walking back over names, `.`, postfix
  /// `?` and `!`, generic arguments and bracketed groups; `nil` when the walk meets something it
  /// cannot place.
  private func calleeStart(endingAt last: Int) -> Int? {
    var index = last
    while true {
      let token = tokens[index]
      if token.kind == .punctuation, let partner = token.partner {
        index = partner
      } else if token.kind == .symbol, source.bytes[token.start] == UInt8(ascii: ">") {
        guard let opening = genericStart(endingAt: index), opening > 0 else { return nil }
        index = opening - 1
        continue
      } else if token.kind == .symbol {
        guard index > 0 else { return nil }
        index -= 1
        continue
      } else if token.kind == .string || token.kind == .regex {
        return index  // `"a".f(…)`: a literal starts the chain.
      } else if token.kind != .word && token.kind != .number {
        return nil
      }
      // `index` starts an element: go on through a `.` before it, or a touching group.
      guard index > 0 else { return index }
      let previous = index - 1
      if isPunctuation(previous, ".") {
        guard previous > 0, endsOperand(previous - 1) else { return previous }
        index = previous - 1
      } else if !tokens[index].lineBreakBefore, tokens[previous].end == tokens[index].start,
        token.kind == .punctuation, endsOperand(previous)
      {
        index = previous
      } else {
        return index
      }
    }
  }

  /// The index of the `<` that opens the generic arguments ending at the `>` at `close`.
  private func genericStart(endingAt close: Int) -> Int? {
    var depth = 0
    var index = close
    while index >= 0 {
      let token = tokens[index]
      switch token.kind {
      case .symbol:
        for byte in source.bytes[token.start..<token.end].reversed() {
          if byte == UInt8(ascii: ">") {
            depth += 1
          } else if byte == UInt8(ascii: "<") {
            depth -= 1
          } else if byte != UInt8(ascii: "?") && byte != UInt8(ascii: "!")
            && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "-")
          {
            return nil
          }
        }
        if depth == 0 { return index }
      case .word:
        break
      case .punctuation:
        if let partner = token.partner, partner < index {
          index = partner
        } else if !isPunctuation(index, ".") && !isPunctuation(index, ",")
          && !isPunctuation(index, ":")
        {
          return nil
        }
      default:
        return nil
      }
      index -= 1
    }
    return nil
  }

  /// Whether the call whose callee starts at `start` stands in a statement's head or a
  /// declaration (`if f() {`, `for x in f() {`, `func f() {`), where the parser reads a `{`
  /// after it as a body. Walks back to the statement's start: an enclosing bracket, a `;`, or a
  /// line break between two operands.
  private func inStatementHead(callee start: Int) -> Bool {
    var index = start - 1
    var next = start
    var sawAssignment = false
    var sawColon = false
    while index >= 0 {
      let token = tokens[index]
      if tokens[next].lineBreakBefore, endsOperand(index), startsOperand(next) { return false }
      switch token.kind {
      case .punctuation:
        if isPunctuation(index, ")") || isPunctuation(index, "]") || isPunctuation(index, "}") {
          index = token.partner!
        } else if isPunctuation(index, "(") || isPunctuation(index, "[")
          || isPunctuation(index, "{") || isPunctuation(index, ";")
        {
          return false
        } else if isPunctuation(index, ":") {
          sawColon = true
        }
      case .pound:
        return false
      case .symbol:
        if source.text(token.start..<token.end) == "=" { sawAssignment = true }
      case .word where !isMemberName(index):
        let word = source.text(token.start..<token.end)
        if word == "case" {
          // In a pattern (`case .a(f(x)):`), or in the case's statements after its `:`.
          return !sawColon
        } else if word == "default" {
          return false
        } else if index + 1 < tokens.count, isPunctuation(index + 1, ":") {
          break  // A label (`for:`), not a keyword.
        } else if word == "let" || word == "var" {
          if !sawAssignment { return true }
        } else if word == "init" {
          return true
        } else if contextualIntroducers.contains(word) {
          // `actor A {`, `macro m(…)`, but not a variable named `macro`.
          if index + 1 < tokens.count, tokens[index + 1].kind == .word { return true }
        } else if statementIntroducers.contains(word) {
          return true
        }
      default:
        break
      }
      next = index
      index -= 1
    }
    return false
  }

  // MARK: - Arguments and closures

  /// The arguments between the parentheses at `open` and `close`.
  private func arguments(in open: Int, _ close: Int) throws(CallRefusal) -> [ScannedCall.Argument] {
    var arguments: [ScannedCall.Argument] = []
    var first = open + 1
    var index = first
    while first < close {
      // The end of this argument: the next comma outside brackets, or the `)`.
      while index < close, !isPunctuation(index, ",") {
        if tokens[index].kind == .pound,
          directives.contains(source.text(tokens[index].start..<tokens[index].end))
        {
          throw refusal("a `#if` among the arguments", index)
        }
        index = (tokens[index].partner.map { $0 > index ? $0 : index } ?? index) + 1
      }
      var expression = first
      if index - first >= 2, tokens[first].kind == .word, isPunctuation(first + 1, ":") {
        expression = first + 2
      }
      guard expression < index else { throw refusal("an argument without an expression", first) }
      // `.pair(let a, var b)` binds names: it is a pattern in a `case`, never a call a test ran.
      if tokens[expression].kind == .word,
        ["let", "var"].contains(source.text(tokens[expression].start..<tokens[expression].end))
      {
        throw refusal("an argument that binds a name (a `case` pattern)", expression)
      }
      let isClosure = isPunctuation(expression, "{") && tokens[expression].partner == index - 1
      arguments.append(
        ScannedCall.Argument(
          start: tokens[first].start,
          expressionEnd: tokens[index - 1].end,
          end: index < close ? tokens[index].end : tokens[index - 1].end,
          closure: isClosure ? closureLiteral(at: expression) : nil
        )
      )
      // A comma after the last argument (`f(a, b,)`) ends the list.
      index += 1
      first = index
    }
    return arguments
  }

  private func refusal(_ shape: String, _ token: Int) -> CallRefusal {
    CallRefusal(shape: shape, offset: tokens[token].start)
  }

  /// The closure whose `{` is at `open`, with the text it returns if it is one string literal.
  private func closureLiteral(at open: Int) -> ScannedCall.Closure? {
    guard open < tokens.count, isPunctuation(open, "{"), let close = tokens[open].partner else {
      return nil
    }
    var body = (open + 1)..<close
    // `{ () -> String in "…" }`: the body starts after a signature's `in`.
    if let signatureEnd = body.firstIndex(where: { isWord($0, "in") }),
      !body[..<signatureEnd].contains(where: { isPunctuation($0, "{") })
    {
      body = (signatureEnd + 1)..<close
    }
    let literal = body.count == 1 && tokens[body.lowerBound].kind == .string
    return ScannedCall.Closure(
      start: tokens[open].start,
      end: tokens[close].end,
      literalText: literal ? tokens[body.lowerBound].literalValue : nil
    )
  }

  // MARK: - Tokens

  private func isPunctuation(_ index: Int, _ character: Unicode.Scalar) -> Bool {
    let token = tokens[index]
    return token.kind == .punctuation && token.end - token.start == 1
      && source.bytes[token.start] == UInt8(character.value)
  }

  private func isWord(_ index: Int, _ word: String) -> Bool {
    tokens[index].kind == .word && source.text(tokens[index].start..<tokens[index].end) == word
  }

  /// Whether the word at `index` follows a `.`, so that even a keyword there (`.default`,
  /// `.init`) is a member's name.
  private func isMemberName(_ index: Int) -> Bool {
    index > 0 && isPunctuation(index - 1, ".")
  }

  /// Whether the token at `index` can end an operand.
  private func endsOperand(_ index: Int) -> Bool {
    let token = tokens[index]
    switch token.kind {
    case .word:
      let word = source.text(token.start..<token.end)
      return !keywords.contains(word) || operandKeywords.contains(word) || isMemberName(index)
    case .number, .string, .regex:
      return true
    case .punctuation:
      return isPunctuation(index, ")") || isPunctuation(index, "]") || isPunctuation(index, "}")
    case .symbol:
      let text = source.text(token.start..<token.end)
      return (text == "?" || text == "!") && index > 0 && tokens[index - 1].end == token.start
    case .pound, .attribute:
      return false
    }
  }

  /// Whether the token at `index` starts an operand or a statement, so that a line break before
  /// it ends the statement before.
  private func startsOperand(_ index: Int) -> Bool {
    switch tokens[index].kind {
    case .word, .number, .string, .regex, .pound, .attribute: return true
    case .symbol: return false
    case .punctuation: return isPunctuation(index, "(") || isPunctuation(index, "[")
    }
  }
}

/// Why ``CallReader`` would not read a call: the shape it met, and where.
struct CallRefusal: Error, Equatable {
  /// What the reader met, as a phrase: "a `#if` among the arguments".
  var shape: String
  /// The byte offset, in the scanned text, of the token it stopped at.
  var offset: Int
}

/// Swift's keywords, which no called expression ends with.
private let keywords: Set<String> = [
  "as", "associatedtype", "await", "break", "case", "catch", "class", "continue", "default",
  "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate",
  "for", "func", "guard", "if", "import", "in", "inout", "internal", "is", "let", "nil",
  "operator", "precedencegroup", "private", "protocol", "public", "repeat", "rethrows", "return",
  "static", "struct", "subscript", "switch", "throw", "throws", "true", "try", "typealias", "var",
  "where", "while", "some", "any",
]

/// The compiler directives, which the reader does not evaluate.
let directives: Set<String> = ["#if", "#elseif", "#else", "#endif", "#sourceLocation"]

/// The keywords that are operands.
private let operandKeywords: Set<String> = ["true", "false", "nil"]

/// Names that open an accessor's body rather than call a function when a `{` follows.
private let accessorNames: Set<String> = [
  "get", "set", "willSet", "didSet", "_read", "_modify", "unsafeAddress", "unsafeMutableAddress",
  "init",
]

/// Words that make what follows them, to the statement's `{`, a head or a declaration.
private let statementIntroducers: Set<String> = [
  "if", "guard", "while", "for", "switch", "func", "subscript", "struct", "class", "enum",
  "extension", "protocol", "else", "do", "defer", "catch", "repeat", "deinit", "where",
  "typealias", "import", "operator", "precedencegroup", "associatedtype",
]

/// Introducers that are keywords only when a name follows them.
private let contextualIntroducers: Set<String> = ["actor", "macro"]
