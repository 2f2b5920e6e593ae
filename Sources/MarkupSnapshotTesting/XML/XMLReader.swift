/// A well-formedness error, or a document nested too deep: where it is and what was wrong.
struct MarkupSyntaxError: Error {
  /// The byte offset of the error in the UTF-8 text.
  var offset: Int
  var reason: String
  /// Whether the document is refused for nesting deeper than ``MarkupDocument/maximumDepth``
  /// (then `offset` is where the element one level too deep begins), rather than malformed.
  var isTooDeep = false

  /// The error for the element at `offset`, one level deeper than the reader accepts.
  static func tooDeep(at offset: Int) -> MarkupSyntaxError {
    MarkupSyntaxError(offset: offset, reason: "", isTooDeep: true)
  }

  /// "line 3, column 7" for the error's position in `bytes` (columns count characters).
  func position(in bytes: [UInt8]) -> String {
    var line = 1
    var lineStart = 0
    let end = min(offset, bytes.count)
    for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    // Count scalars, not bytes: every byte that does not continue a UTF-8 sequence.
    let column = 1 + bytes[lineStart..<end].lazy.filter { $0 & 0xC0 != 0x80 }.count
    return "line \(line), column \(column)"
  }
}

/// Reads an XML document into a ``MarkupDocument``, checking that it is well-formed.
///
/// It reads bytes (UTF-8) without recursion, so neither a 10 MB line nor deep nesting can
/// overflow the stack; it stops at the element one level deeper than
/// ``MarkupDocument/maximumDepth``. Foundation's `XMLParser` is not used: on Linux it depends on the
/// libxml2 that swift-corelibs-foundation was built with, and the canonical form needs the source
/// spelling of text and attributes (references undecoded), which it does not give.
/// - Complexity: O(*n*) for *n* bytes.
struct XMLReader {
  private let bytes: [UInt8]
  private var index = 0
  /// The general entities the DOCTYPE's internal subset declares.
  private var declaredEntities: Set<String> = []
  /// Whether the XML declaration says `standalone="yes"`.
  private var standalone = false
  /// Whether entities may be declared where the reader does not look (an external DTD or a
  /// parameter entity), so that, as in expat, an undeclared one is not an error.
  private var entitiesMayBeExternal = false

  private init(bytes: [UInt8]) { self.bytes = bytes }

  static func read(_ bytes: [UInt8]) throws(MarkupSyntaxError) -> MarkupDocument {
    var reader = XMLReader(bytes: bytes)
    return try reader.document()
  }

  private mutating func document() throws(MarkupSyntaxError) -> MarkupDocument {
    var document = MarkupDocument(nodes: [])
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      document.byteOrderMark = true
      index = 3
    }
    var open: [(element: MarkupElement, offset: Int)] = []
    var sawRoot = false
    func append(_ node: MarkupNode) {
      if let parent = open.last?.element {
        parent.children.append(node)
      } else {
        document.nodes.append(node)
      }
    }
    while index < bytes.count {
      let start = index
      guard bytes[index] == UInt8(ascii: "<") else {
        let text = try self.text()
        if open.isEmpty {
          guard isWhitespace(text) else {
            throw MarkupSyntaxError(
              offset: start + firstNonWhitespace(text),
              reason: sawRoot
                ? "text after the root element" : "text before the root element"
            )
          }
        } else if !isWhitespace(text) || open.last!.element.preservesContent {
          append(.text(text))
        }
        continue
      }
      if hasPrefix("<?") {
        let instruction = try through("?>", what: "processing instruction")
        let target = instruction.dropFirst(2).prefix { !isWhitespaceByte($0) && $0 != 0x3F }
        if String(decoding: target, as: UTF8.self).lowercased() == "xml" {
          guard start == (document.byteOrderMark ? 3 : 0) else {
            throw MarkupSyntaxError(
              offset: start,
              reason: "an XML declaration that is not at the start of the document"
            )
          }
          let declaration = String(decoding: instruction, as: UTF8.self)
          standalone =
            declaration.contains("standalone=\"yes\"") || declaration.contains("standalone='yes'")
        }
        append(.verbatim(String(decoding: instruction, as: UTF8.self)))
      } else if hasPrefix("<!--") {
        let comment = try through("-->", what: "comment")
        append(.comment(String(decoding: comment.dropFirst(4).dropLast(3), as: UTF8.self)))
      } else if hasPrefix("<![CDATA[") {
        guard !open.isEmpty else {
          throw MarkupSyntaxError(offset: start, reason: "a CDATA section outside the root element")
        }
        let section = try through("]]>", what: "CDATA section")
        append(.cdata(String(decoding: section.dropFirst(9).dropLast(3), as: UTF8.self)))
      } else if hasPrefix("<!DOCTYPE") {
        guard open.isEmpty, !sawRoot else {
          throw MarkupSyntaxError(offset: start, reason: "a DOCTYPE after the root element")
        }
        append(.verbatim(try doctype()))
      } else if hasPrefix("</") {
        index += 2
        let name = try self.name()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
          throw MarkupSyntaxError(offset: index, reason: "expected \">\" to end </\(name)>")
        }
        index += 1
        guard let (element, _) = open.last else {
          throw MarkupSyntaxError(
            offset: start,
            reason: "an end tag </\(name)> with no open element"
          )
        }
        guard element.name == name else {
          throw MarkupSyntaxError(
            offset: start,
            reason: "expected </\(element.name)>, found </\(name)>"
          )
        }
        open.removeLast()
      } else {
        if open.isEmpty && sawRoot {
          throw MarkupSyntaxError(offset: start, reason: "a second root element")
        }
        index += 1
        let (element, selfClosing) = try startTag()
        if let space = element.attributes.first(where: { $0.name == "xml:space" })?.value {
          element.preservesContent = space == "preserve"
        } else {
          element.preservesContent = open.last?.element.preservesContent ?? false
        }
        append(.element(element))
        sawRoot = true
        if !selfClosing {
          guard open.count < MarkupDocument.maximumDepth else { throw .tooDeep(at: start) }
          open.append((element, start))
        }
      }
    }
    if let (element, offset) = open.last {
      let opened = MarkupSyntaxError(offset: offset, reason: "").position(in: bytes)
      throw MarkupSyntaxError(
        offset: bytes.count,
        reason: "the element <\(element.name)> opened at \(opened) is never closed"
      )
    }
    guard sawRoot else {
      throw MarkupSyntaxError(offset: bytes.count, reason: "the document has no root element")
    }
    return document
  }

  // MARK: - Pieces

  private mutating func startTag() throws(MarkupSyntaxError) -> (MarkupElement, Bool) {
    let element = MarkupElement(name: try name(), attributes: [])
    element.closesItself = true
    while true {
      let hadWhitespace = skipWhitespace()
      guard index < bytes.count else {
        throw MarkupSyntaxError(offset: index, reason: "the tag <\(element.name)> is never closed")
      }
      if bytes[index] == UInt8(ascii: ">") {
        index += 1
        return (element, false)
      }
      if hasPrefix("/>") {
        index += 2
        return (element, true)
      }
      guard hadWhitespace else {
        throw MarkupSyntaxError(
          offset: index,
          reason: "expected a space, \">\" or \"/>\" in the tag <\(element.name)>"
        )
      }
      let nameOffset = index
      let name = try self.name()
      if element.attributes.contains(where: { $0.name == name }) {
        throw MarkupSyntaxError(
          offset: nameOffset,
          reason: "the attribute \"\(name)\" appears twice in <\(element.name)>"
        )
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
        throw MarkupSyntaxError(
          offset: index,
          reason: "expected \"=\" after the attribute \"\(name)\""
        )
      }
      index += 1
      skipWhitespace()
      guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else {
        throw MarkupSyntaxError(
          offset: index,
          reason: "expected a quoted value for the attribute \"\(name)\""
        )
      }
      let quote = bytes[index]
      index += 1
      let valueStart = index
      while index < bytes.count, bytes[index] != quote {
        if bytes[index] == UInt8(ascii: "<") {
          throw MarkupSyntaxError(
            offset: index,
            reason: "\"<\" in the value of the attribute \"\(name)\""
          )
        }
        if bytes[index] == UInt8(ascii: "&") { try reference() } else { index += 1 }
      }
      guard index < bytes.count else {
        throw MarkupSyntaxError(
          offset: valueStart - 1,
          reason: "the value of the attribute \"\(name)\" is never closed"
        )
      }
      var value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
      if quote == 0x27 { value = value.replacingAll("\"", with: "&quot;") }
      index += 1
      element.attributes.append(MarkupAttribute(name: name, value: value))
    }
  }

  /// Text up to the next `<`, with its references checked.
  private mutating func text() throws(MarkupSyntaxError) -> String {
    let start = index
    while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
      if bytes[index] == UInt8(ascii: "&") {
        try reference()
      } else if bytes[index] == UInt8(ascii: "]"), hasPrefix("]]>") {
        throw MarkupSyntaxError(offset: index, reason: "\"]]>\" in text")
      } else {
        index += 1
      }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Checks the reference at `index` (`&name;`, `&#10;`, `&#x1F;`) and moves past it.
  private mutating func reference() throws(MarkupSyntaxError) {
    let start = index
    index += 1
    if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
      index += 1
      let hex = index < bytes.count && bytes[index] == UInt8(ascii: "x")
      if hex { index += 1 }
      let digitsStart = index
      while index < bytes.count, isDigit(bytes[index], hex: hex) { index += 1 }
      if index > digitsStart, index < bytes.count, bytes[index] == UInt8(ascii: ";") {
        index += 1
        return
      }
    } else if index < bytes.count, isNameStart(bytes[index]) {
      while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
      if index < bytes.count, bytes[index] == UInt8(ascii: ";") {
        let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        index += 1
        guard
          Self.predefinedEntities.contains(name) || declaredEntities.contains(name)
            || (entitiesMayBeExternal && !standalone)
        else {
          throw MarkupSyntaxError(
            offset: start,
            reason: "the entity \"&\(name);\" is not declared (XML predefines only &amp;, &lt;, "
              + "&gt;, &apos; and &quot;)"
          )
        }
        return
      }
    }
    throw MarkupSyntaxError(
      offset: start,
      reason: "\"&\" that does not begin a reference (write &amp; for a literal &)"
    )
  }

  private mutating func name() throws(MarkupSyntaxError) -> String {
    let start = index
    guard index < bytes.count, isNameStart(bytes[index]) else {
      throw MarkupSyntaxError(offset: index, reason: "expected a name")
    }
    while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// `<!DOCTYPE …>` with its internal subset, whose `>` inside brackets and quotes do not end it.
  ///
  /// Notes the general entities the subset declares, and whether others may be declared
  /// elsewhere: an external identifier (`SYSTEM`, `PUBLIC`) or a parameter entity reference.
  private mutating func doctype() throws(MarkupSyntaxError) -> String {
    let start = index
    var depth = 0
    var quote: UInt8?
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if let open = quote {
        if byte == open { quote = nil }
      } else if byte == 0x22 || byte == 0x27 {
        quote = byte
      } else if byte == UInt8(ascii: "[") {
        depth += 1
      } else if byte == UInt8(ascii: "]") {
        depth -= 1
      } else if byte == UInt8(ascii: ">"), depth <= 0 {
        return String(decoding: bytes[start..<index], as: UTF8.self)
      } else if depth == 0, quote == nil,
        bytes.hasPrefix("SYSTEM", at: index - 1)
          || bytes.hasPrefix("PUBLIC", at: index - 1)
      {
        entitiesMayBeExternal = true
      } else if depth > 0, byte == UInt8(ascii: "%"), index < bytes.count,
        isNameStart(bytes[index])
      {
        entitiesMayBeExternal = true
      } else if depth > 0, byte == UInt8(ascii: "<"), bytes.hasPrefix("!ENTITY", at: index) {
        var position = index + 7
        while position < bytes.count, isWhitespaceByte(bytes[position]) { position += 1 }
        let nameStart = position
        while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
        if position > nameStart {
          declaredEntities.insert(String(decoding: bytes[nameStart..<position], as: UTF8.self))
        }
        index = position
      } else if depth > 0, byte == UInt8(ascii: "<"), bytes.hasPrefix("!--", at: index) {
        guard let end = find("-->", from: index + 3) else { break }
        index = end
      }
    }
    throw MarkupSyntaxError(offset: start, reason: "the DOCTYPE is never closed")
  }

  private static let predefinedEntities: Set<String> = ["amp", "lt", "gt", "apos", "quot"]

  /// The bytes from `index` through the next `terminator`, which must exist.
  private mutating func through(
    _ terminator: String,
    what: String
  ) throws(MarkupSyntaxError) -> ArraySlice<UInt8> {
    let start = index
    guard let end = find(terminator, from: index + 2) else {
      throw MarkupSyntaxError(offset: start, reason: "the \(what) is never closed")
    }
    index = end
    return bytes[start..<end]
  }

  /// The offset just past the first `terminator` at or after `from`.
  private func find(_ terminator: String, from: Int) -> Int? {
    bytes.offset(past: terminator, from: from)
  }

  private func hasPrefix(_ prefix: String) -> Bool {
    bytes.hasPrefix(prefix, at: index)
  }

  @discardableResult
  private mutating func skipWhitespace() -> Bool {
    let start = index
    while index < bytes.count, isWhitespaceByte(bytes[index]) { index += 1 }
    return index > start
  }

  private func isWhitespace(_ text: String) -> Bool {
    text.utf8.allSatisfy(isWhitespaceByte)
  }

  private func firstNonWhitespace(_ text: String) -> Int {
    text.utf8.firstIndex { !isWhitespaceByte($0) }.map {
      text.utf8.distance(from: text.utf8.startIndex, to: $0)
    } ?? 0
  }
}

// MARK: - Bytes

func isWhitespaceByte(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
}

private func isNameStart(_ byte: UInt8) -> Bool {
  (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == 0x5F
    || byte == 0x3A || byte >= 0x80
}

private func isNameByte(_ byte: UInt8) -> Bool {
  isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
}

private func isDigit(_ byte: UInt8, hex: Bool) -> Bool {
  (byte >= 0x30 && byte <= 0x39)
    || (hex && byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
}

extension Array where Element == UInt8 {
  func hasPrefix(_ prefix: String, at offset: Int) -> Bool {
    guard offset >= 0, offset + prefix.utf8.count <= self.count else { return false }
    var position = offset
    for byte in prefix.utf8 {
      if self[position] != byte { return false }
      position += 1
    }
    return true
  }

  /// The offset just past the first `needle` at or after `from`, or `nil`.
  func offset(past needle: String, from: Int) -> Int? {
    let count = needle.utf8.count
    guard let first = needle.utf8.first else { return from }
    var position = Swift.max(from, 0)
    while position + count <= self.count {
      if self[position] == first, hasPrefix(needle, at: position) { return position + count }
      position += 1
    }
    return nil
  }
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    guard contains(target) else { return self }
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
