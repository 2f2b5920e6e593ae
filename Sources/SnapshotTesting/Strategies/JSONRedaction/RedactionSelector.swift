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
///
/// The parser reads Unicode scalars, not characters: a combining accent after `.`, `[` or `"`
/// (which `Character` would join to it) begins the key that follows, so every key can be written.
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
  /// 1-based position of the character (grapheme cluster) where the error is; one past the last
  /// character when the selector ended too soon.
  let position: Int
  let expectation: String

  var description: String {
    "The redaction selector \"\(selector)\" has an error at character \(position): \(expectation)."
  }
}

private struct RedactionSelectorParser {
  let source: String
  let scalars: [Unicode.Scalar]
  /// An offset in `scalars`.
  var position = 0

  init(_ source: String) {
    self.source = source
    scalars = Array(source.unicodeScalars)
  }

  var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  func error(_ expectation: String) -> RedactionSelectorError {
    let found = current.map { ", found \"\($0)\"" } ?? ", found the end of the selector"
    return RedactionSelectorError(
      selector: source,
      position: characterPosition,
      expectation: expectation + found
    )
  }

  /// The 1-based position of the character that holds the current scalar, or one past the last.
  var characterPosition: Int {
    var scalarsBefore = 0
    var characterPosition = 1
    for character in source {
      scalarsBefore += character.unicodeScalars.count
      if scalarsBefore > position { break }
      characterPosition += 1
    }
    return characterPosition
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
    while let scalar = current, Self.isKeyCharacter(scalar) {
      position += 1
    }
    guard position > start else { throw error("expected a key") }
    return .key(Self.string(scalars[start..<position]))
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
      while let scalar = current, ("0"..."9").contains(scalar) {
        position += 1
      }
      guard position > start else { throw error(#"expected an index, "*" or a quoted key"#) }
      guard let index = Int(Self.string(scalars[start..<position])) else {
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
    var key = String.UnicodeScalarView()
    while let scalar = current, scalar != "\"" {
      position += 1
      guard scalar == "\\" else {
        key.append(scalar)
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
    return String(key)
  }

  static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
    !".[]*\"".unicodeScalars.contains(scalar) && !scalar.properties.isWhitespace
  }

  static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    var string = String.UnicodeScalarView()
    string.append(contentsOf: scalars)
    return String(string)
  }
}
