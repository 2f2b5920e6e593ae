/// A CSS-like selector, parsed: compounds of a type, `#id`, `.class` and `[attribute]` tests,
/// joined by descendant (space) and child (`>`) combinators.
struct MarkupSelector: Sendable {
  struct Compound: Sendable {
    var type: String?
    var tests: [AttributeTest] = []
    /// How this compound relates to the one before it (`nil` for the first).
    var combinator: Combinator?
  }

  enum Combinator: Sendable { case descendant, child }

  struct AttributeTest: Sendable {
    enum Operation: Sendable { case exists, equals, containsWord, hasPrefix, hasSuffix, contains }
    var name: String
    var operation: Operation
    var value: String
  }

  let source: String
  var compounds: [Compound] = []

  // MARK: - Parsing

  struct SyntaxError: Error, CustomStringConvertible {
    var source: String
    var offset: Int
    var reason: String
    var description: String {
      "The selector \"\(source)\" is not valid: \(reason) at character \(offset + 1)."
    }
  }

  init(parsing source: String) throws(SyntaxError) {
    self.source = source
    let characters = Array(source)
    var index = 0
    func fail(_ reason: String) -> SyntaxError {
      SyntaxError(source: source, offset: index, reason: reason)
    }
    func identifier() -> String {
      let start = index
      while index < characters.count,
        characters[index].isLetter || characters[index].isNumber
          || "-_|".contains(characters[index])
          || characters[index].unicodeScalars.first!.value > 0x7F
      {
        index += 1
      }
      return String(characters[start..<index]).replacingAll("|", with: ":")
    }
    func skipSpaces() -> Bool {
      let start = index
      while index < characters.count, characters[index].isWhitespace { index += 1 }
      return index > start
    }
    _ = skipSpaces()
    var combinator: Combinator?
    while index < characters.count {
      var compound = Compound(combinator: combinator)
      if characters[index] == "*" {
        index += 1
      } else {
        let type = identifier()
        if !type.isEmpty { compound.type = type }
      }
      while index < characters.count {
        let character = characters[index]
        if character == "#" || character == "." {
          index += 1
          let name = identifier()
          guard !name.isEmpty else {
            throw fail("expected a name after \"\(character)\"")
          }
          compound.tests.append(
            character == "#"
              ? AttributeTest(name: "id", operation: .equals, value: name)
              : AttributeTest(name: "class", operation: .containsWord, value: name)
          )
        } else if character == "[" {
          index += 1
          _ = skipSpaces()
          let name = identifier()
          guard !name.isEmpty else { throw fail("expected an attribute name") }
          _ = skipSpaces()
          var test = AttributeTest(name: name, operation: .exists, value: "")
          if index < characters.count, characters[index] != "]" {
            let operations: [(String, AttributeTest.Operation)] = [
              ("=", .equals), ("~=", .containsWord), ("^=", .hasPrefix), ("$=", .hasSuffix),
              ("*=", .contains),
            ]
            guard
              let (text, operation) = operations.first(where: { text, _ in
                characters[index...].starts(with: Array(text))
              })
            else { throw fail("expected \"]\", \"=\", \"~=\", \"^=\", \"$=\" or \"*=\"") }
            index += text.count
            _ = skipSpaces()
            test.operation = operation
            if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
              let quote = characters[index]
              index += 1
              let start = index
              while index < characters.count, characters[index] != quote { index += 1 }
              guard index < characters.count else { throw fail("the quoted value is never closed") }
              test.value = String(characters[start..<index])
              index += 1
            } else {
              test.value = identifier()
              guard !test.value.isEmpty else { throw fail("expected a value") }
            }
            _ = skipSpaces()
          }
          guard index < characters.count, characters[index] == "]" else {
            throw fail("expected \"]\"")
          }
          index += 1
          compound.tests.append(test)
        } else {
          break
        }
      }
      guard compound.type != nil || !compound.tests.isEmpty || characters[index - 1] == "*" else {
        throw fail("expected an element name, \"*\", \"#\", \".\" or \"[\"")
      }
      compounds.append(compound)
      let spaced = skipSpaces()
      guard index < characters.count else { break }
      if characters[index] == ">" {
        index += 1
        _ = skipSpaces()
        combinator = .child
        guard index < characters.count else { throw fail("expected a selector after \">\"") }
      } else if spaced {
        combinator = .descendant
      } else {
        throw fail("unexpected \"\(characters[index])\"")
      }
    }
    guard !compounds.isEmpty else { throw fail("the selector is empty") }
  }

  // MARK: - Matching

  /// Whether `element`, whose ancestors (outermost first) are `ancestors`, matches.
  func matches(
    _ element: MarkupElement,
    ancestors: ArraySlice<MarkupElement>,
    caseSensitive: Bool
  ) -> Bool {
    guard let last = compounds.last, matches(last, element, caseSensitive) else { return false }
    // Right to left; a descendant combinator may try several ancestors. Backtracking is bounded
    // by the number of compounds times the depth.
    var remaining = compounds.dropLast()
    var ancestors = ancestors
    var combinator = last.combinator
    while let compound = remaining.last {
      guard let relation = combinator else { return false }
      switch relation {
      case .child:
        guard let parent = ancestors.popLast(), matches(compound, parent, caseSensitive) else {
          return false
        }
      case .descendant:
        var found = false
        while let ancestor = ancestors.popLast() {
          if matches(compound, ancestor, caseSensitive) {
            found = true
            break
          }
        }
        guard found else { return false }
      }
      combinator = compound.combinator
      remaining.removeLast()
    }
    return true
  }

  private func matches(_ compound: Compound, _ element: MarkupElement, _ caseSensitive: Bool)
    -> Bool
  {
    if let type = compound.type {
      let equal =
        caseSensitive
        ? type == element.name : asciiLowercased(type) == asciiLowercased(element.name)
      guard equal else { return false }
    }
    return compound.tests.allSatisfy { test in
      let name = caseSensitive ? test.name : asciiLowercased(test.name)
      guard
        let attribute = element.attributes.first(where: {
          (caseSensitive ? $0.name : asciiLowercased($0.name)) == name
        })
      else { return false }
      let value = attribute.value ?? ""
      switch test.operation {
      case .exists: return true
      case .equals: return value == test.value
      case .containsWord:
        return value.split(whereSeparator: \.isWhitespace).contains { $0 == test.value }
      case .hasPrefix: return !test.value.isEmpty && value.hasPrefix(test.value)
      case .hasSuffix: return !test.value.isEmpty && value.hasSuffix(test.value)
      case .contains: return !test.value.isEmpty && value.contains(test.value)
      }
    }
  }
}
