/// A path to values in a JSON document, written as text by a test: `id`, `meta.requestID`,
/// `items[0]`, `items[*].createdAt`, `**.token`, `[*].id`, `headers["x.request-id"]`.
///
/// Grammar (keys are compared with the decoded JSON key, exactly):
///
/// ```
/// selector := first ( "." segment | "[" bracket "]" )*
/// first    := segment | "[" bracket "]"
/// segment  := key | "**"          ("**" is any number of keys and indices, and must be
///                                  followed by something)
/// key      := one or more characters other than  . [ ] * " and whitespace
/// bracket  := digits | "*" | quoted
/// quoted   := '"' (any character but " and \, or \" or \\)* '"'   (any key at all)
/// ```
struct RedactionSelector: Hashable, Sendable {
  enum Component: Hashable, Sendable {
    /// An object member with this key.
    case key(String)
    /// This element of an array.
    case index(Int)
    /// Every element of an array.
    case anyIndex
    /// Any number (zero or more) of keys and indices.
    case anyDepth
  }

  /// The text the test wrote, for messages.
  let source: String
  let components: [Component]

  /// Parses `source`; a syntax error names the 1-based character where it was found.
  ///
  /// Complexity: O(*n*) in the length of `source`.
  static func parse(_ source: String) throws(RedactionSelectorError) -> RedactionSelector {
    var parser = RedactionSelectorParser(source)
    return RedactionSelector(source: source, components: try parser.parseSelector())
  }
}

/// A selector that cannot be parsed: where and why.
struct RedactionSelectorError: Error, Equatable, Sendable, CustomStringConvertible {
  let selector: String
  /// 1-based character position; one past the last character when the selector ended too soon.
  let position: Int
  let expectation: String

  var description: String {
    "The redaction selector \"\(selector)\" has an error at character \(position): \(expectation)."
  }
}

private struct RedactionSelectorParser {
  let source: String
  let characters: [Character]
  var position = 0

  init(_ source: String) {
    self.source = source
    characters = Array(source)
  }

  var current: Character? { position < characters.count ? characters[position] : nil }

  func error(_ expectation: String) -> RedactionSelectorError {
    let found = current.map { ", found \"\($0)\"" } ?? ", found the end of the selector"
    return RedactionSelectorError(
      selector: source,
      position: position + 1,
      expectation: expectation + found
    )
  }

  mutating func parseSelector() throws(RedactionSelectorError) -> [RedactionSelector.Component] {
    var components: [RedactionSelector.Component] = []
    if current == "[" {
      components.append(try parseBracket())
    } else {
      components.append(try parseSegment())
    }
    while let character = current {
      switch character {
      case ".":
        position += 1
        components.append(try parseSegment())
      case "[":
        components.append(try parseBracket())
      default:
        throw error(#"expected ".", "[" or the end of the selector"#)
      }
    }
    if components.last == .anyDepth {
      throw error(#"expected ".key" or "[index]" after "**""#)
    }
    return components
  }

  mutating func parseSegment() throws(RedactionSelectorError) -> RedactionSelector.Component {
    if current == "*" {
      position += 1
      guard current == "*" else {
        throw error(#"expected "**" (a single "*" selects indices: "[*]")"#)
      }
      position += 1
      return .anyDepth
    }
    let start = position
    while let character = current, Self.isKeyCharacter(character) {
      position += 1
    }
    guard position > start else { throw error("expected a key") }
    return .key(String(characters[start..<position]))
  }

  mutating func parseBracket() throws(RedactionSelectorError) -> RedactionSelector.Component {
    position += 1  // "["
    let component: RedactionSelector.Component
    if current == "\"" {
      component = .key(try parseQuotedKey())
    } else if current == "*" {
      position += 1
      component = .anyIndex
    } else {
      let start = position
      while let character = current, character.isASCII, character.isNumber {
        position += 1
      }
      guard position > start else { throw error(#"expected an index, "*" or a quoted key"#) }
      guard let index = Int(String(characters[start..<position])) else {
        position = start
        throw error("expected an index small enough for an Int")
      }
      component = .index(index)
    }
    guard current == "]" else { throw error(#"expected "]""#) }
    position += 1
    return component
  }

  /// Reads `"…"`, where `\"` and `\\` stand for `"` and `\`.
  mutating func parseQuotedKey() throws(RedactionSelectorError) -> String {
    position += 1  // the opening quote
    var key = ""
    while let character = current, character != "\"" {
      position += 1
      guard character == "\\" else {
        key.append(character)
        continue
      }
      guard let escaped = current, escaped == "\"" || escaped == "\\" else {
        throw error(#"expected a quote or a backslash after the backslash"#)
      }
      key.append(escaped)
      position += 1
    }
    guard current == "\"" else { throw error("expected a quote to close the key") }
    position += 1
    return key
  }

  static func isKeyCharacter(_ character: Character) -> Bool {
    !".[]*\"".contains(character) && !character.isWhitespace
  }
}
