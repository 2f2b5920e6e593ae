/// The words and parentheses of SQL text, outside strings, quoted names and comments, each with
/// its depth of parentheses: enough to tell where a query orders its rows and where a table's
/// `CHECK` constraints are, without parsing SQL.
struct SQLTokens {
  enum Kind: Equatable {
    /// A keyword or bare name, upper-cased.
    case word(String)
    case open
    case close
    /// A quoted name or string; its text is not kept.
    case quoted
  }

  struct Token {
    var kind: Kind
    /// Parentheses open around it (an `open` counts those outside it).
    var depth: Int
    /// Where it starts and ends in the text's scalars.
    var range: Range<Int>
  }

  let scalars: [Unicode.Scalar]
  private(set) var tokens: [Token] = []

  /// The tokens of `sql`.
  ///
  /// - Complexity: O(*n*) in the length of `sql`.
  init(_ sql: String) {
    scalars = Array(sql.unicodeScalars)
    var index = 0
    var depth = 0
    while index < scalars.count {
      let start = index
      let scalar = scalars[index]
      switch scalar {
      case "'", "\"", "`", "[":
        index = end(ofQuoted: index, quote: scalar == "[" ? "]" : scalar)
        tokens.append(Token(kind: .quoted, depth: depth, range: start..<index))
      case "-" where next(index) == "-":
        while index < scalars.count && scalars[index] != "\n" { index += 1 }
      case "/" where next(index) == "*":
        index += 2
        while index < scalars.count && !(scalars[index] == "*" && next(index) == "/") {
          index += 1
        }
        index = min(scalars.count, index + 2)
      case "$":
        index = end(ofDollarQuoted: index)
        if index - start > 1 {
          tokens.append(Token(kind: .quoted, depth: depth, range: start..<index))
        }
      case "(":
        index += 1
        tokens.append(Token(kind: .open, depth: depth, range: start..<index))
        depth += 1
      case ")":
        depth = max(0, depth - 1)
        index += 1
        tokens.append(Token(kind: .close, depth: depth, range: start..<index))
      default:
        if Self.isWordScalar(scalar) {
          var word = ""
          while index < scalars.count, Self.isWordScalar(scalars[index]) {
            word.unicodeScalars.append(scalars[index])
            index += 1
          }
          tokens.append(Token(kind: .word(word.uppercased()), depth: depth, range: start..<index))
        } else {
          index += 1
        }
      }
    }
  }

  /// The text of a range of scalars.
  func text(_ range: Range<Int>) -> String {
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars[range])
    return text
  }

  private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar)
  }

  private func next(_ index: Int) -> Unicode.Scalar? {
    index + 1 < scalars.count ? scalars[index + 1] : nil
  }

  /// The index after a quoted string or name; a doubled quote stays inside it.
  private func end(ofQuoted start: Int, quote: Unicode.Scalar) -> Int {
    var index = start + 1
    while index < scalars.count {
      if scalars[index] == quote {
        if next(index) == quote && quote != "]" {
          index += 2
          continue
        }
        return index + 1
      }
      index += 1
    }
    return index
  }

  /// The index after PostgreSQL's `$tag$…$tag$`, or after a lone `$` (a parameter, `$1`).
  private func end(ofDollarQuoted start: Int) -> Int {
    var tagEnd = start + 1
    while tagEnd < scalars.count, scalars[tagEnd].properties.isAlphabetic || scalars[tagEnd] == "_"
    {
      tagEnd += 1
    }
    guard tagEnd < scalars.count, scalars[tagEnd] == "$" else { return start + 1 }
    let tag = scalars[start...tagEnd]
    var index = tagEnd + 1
    while index + tag.count <= scalars.count {
      if scalars[index] == "$" && scalars[index..<(index + tag.count)].elementsEqual(tag) {
        return index + tag.count
      }
      index += 1
    }
    return scalars.count
  }
}

extension SQLTokens {
  /// Whether the query fixes the order of its rows: an `ORDER BY` outside parentheses. A query
  /// without one may return its rows in another order after a change that has nothing to do
  /// with it (an `UPDATE`, a new index, `VACUUM`).
  var ordersRows: Bool {
    var previous: String?
    for token in tokens where token.depth == 0 {
      if case .word(let word) = token.kind {
        if previous == "ORDER" && word == "BY" { return true }
        previous = word
      } else {
        previous = nil
      }
    }
    return false
  }

  /// The `CHECK (…)` constraints of a `CREATE TABLE` statement, as `CHECK (…)` texts with their
  /// `CONSTRAINT name` when they have one, whitespace collapsed.
  var checkConstraints: [(name: String, text: String)] {
    var found: [(name: String, text: String)] = []
    for (position, token) in tokens.enumerated()
    where token.kind == .word("CHECK") && token.depth == 1 {
      guard position + 1 < tokens.count, tokens[position + 1].kind == .open else { continue }
      let open = tokens[position + 1]
      guard
        let close = tokens[(position + 2)...].first(where: {
          $0.kind == .close && $0.depth == open.depth
        })
      else { continue }
      var name = ""
      if position >= 2, tokens[position - 2].kind == .word("CONSTRAINT") {
        name = text(tokens[position - 1].range)
      }
      let body = text(open.range.lowerBound..<close.range.upperBound)
      found.append(
        (name, "CHECK " + body.split(whereSeparator: \.isWhitespace).joined(separator: " "))
      )
    }
    return found
  }
}
