/// A well-formedness error, or a document nested too deep: where it is and what was wrong.
struct MarkupSyntaxError: Error {
  /// The byte offset of the error in the UTF-8 text.
  var offset: Int
  var reason: String
  /// Whether the document is refused for nesting deeper than ``MarkupDocument/maximumDepth``
  /// (then `offset` is where the element one level too deep begins), rather than malformed.
  var isTooDeep = false
  /// Whether the bytes at `offset` are not UTF-8 (then `reason` is empty).
  var isNotUTF8 = false
  /// Whether the reader ran out of input (a construct never closed): reading a document cut
  /// short at a bad character, such an error means the character is the first error.
  var atEnd = false

  /// The error for the element at `offset`, one level deeper than the reader accepts.
  static func tooDeep(at offset: Int) -> MarkupSyntaxError {
    MarkupSyntaxError(offset: offset, reason: "", isTooDeep: true)
  }

  /// The error for a construct that begins at `offset` and is still open at the end.
  static func unfinished(at offset: Int, _ reason: String) -> MarkupSyntaxError {
    MarkupSyntaxError(offset: offset, reason: reason, atEnd: true)
  }

  /// The error's line and column in `bytes`, both from 1: a line ends at LF, CR or CR LF (XML
  /// and HTML read all three as one line feed, and so does expat), and columns count
  /// characters.
  func lineAndColumn(in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    let end = min(offset, bytes.count)
    var index = 0
    while index < end {
      let byte = bytes[index]
      index += 1
      if byte == 0x0A || byte == 0x0D {
        if byte == 0x0D, index < end, bytes[index] == 0x0A { index += 1 }
        line += 1
        lineStart = index
      }
    }
    // Count scalars, not bytes: every byte that does not continue a UTF-8 sequence.
    let column = 1 + bytes[lineStart..<end].lazy.filter { $0 & 0xC0 != 0x80 }.count
    return (line, column)
  }

  /// "line 3, column 7" for the error's position in `bytes` (see ``lineAndColumn(in:)``).
  func position(in bytes: [UInt8]) -> String {
    let (line, column) = lineAndColumn(in: bytes)
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
  /// The length of the whole document: `bytes` may be only its part before a bad character.
  private let documentCount: Int
  /// The error of the bad character that `bytes` stop before, if they do, and its first byte.
  private let badCharacter: MarkupSyntaxError?
  private let badByte: UInt8?
  private var index = 0
  /// The general entities the DOCTYPE's internal subset declares.
  private var declaredEntities: Set<String> = []
  /// Whether the XML declaration says `standalone="yes"`.
  private var standalone = false
  /// Whether entities may be declared where the reader does not look (an external DTD or a
  /// parameter entity), so that, as in expat, an undeclared one is not an error.
  private var entitiesMayBeExternal = false

  private init(
    bytes: [UInt8],
    documentCount: Int,
    badCharacter: MarkupSyntaxError? = nil,
    badByte: UInt8? = nil
  ) {
    self.bytes = bytes
    self.documentCount = documentCount
    self.badCharacter = badCharacter
    self.badByte = badByte
  }

  /// The document in `bytes`, or its first error in document order, as expat finds it: a
  /// byte that is not UTF-8 or a character XML does not allow (a control character other
  /// than tab, line feed and carriage return, U+FFFE, U+FFFF) is an error where it stands,
  /// unless the document before it already has one.
  static func read(_ bytes: [UInt8]) throws(MarkupSyntaxError) -> MarkupDocument {
    guard let bad = firstInvalidCharacter(in: bytes) else {
      var reader = XMLReader(bytes: bytes, documentCount: bytes.count)
      return try reader.document()
    }
    // Read what comes before it: an error there comes first, unless it is only that the
    // document stops (which it does not: it goes on with the bad character).
    var reader = XMLReader(
      bytes: Array(bytes[..<bad.offset]),
      documentCount: bytes.count,
      badCharacter: bad,
      badByte: bytes[bad.offset]
    )
    do {
      _ = try reader.document()
    } catch where !error.atEnd {
      throw error
    } catch where bad.isNotUTF8 && isCutCharacter(bytes[bad.offset...]) {
      // A character the document ends in the middle of: expat reports it where the construct
      // it was part of begins.
      throw MarkupSyntaxError(offset: error.offset, reason: "", isNotUTF8: true)
    } catch {}
    throw bad
  }

  /// Whether `bytes` begin with a UTF-8 lead byte that the document ends before the length it
  /// announces, as expat tells them: by the lead alone (`C0` and `C1` announce two bytes, `F0`
  /// to `F4` four), whatever the bytes after it are.
  private static func isCutCharacter(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard let lead = bytes.first else { return false }
    let length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
    return length > bytes.count && lead <= 0xF4
  }

  /// The first byte that is not UTF-8, or character that XML does not allow.
  static func firstInvalidCharacter(in bytes: [UInt8]) -> MarkupSyntaxError? {
    let notUTF8 = MarkupText.firstInvalidUTF8(bytes)
    let end = notUTF8 ?? bytes.count
    var index = 0
    while index < end {
      let byte = bytes[index]
      if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
        let hex = String(byte, radix: 16, uppercase: true)
        return MarkupSyntaxError(
          offset: index,
          reason: "the control character U+\(hex.count == 1 ? "000" : "00")\(hex), which XML "
            + "does not allow"
        )
      }
      if byte == 0xEF, index + 2 < end, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
        return MarkupSyntaxError(
          offset: index,
          reason: "the noncharacter U+\(bytes[index + 2] == 0xBE ? "FFFE" : "FFFF"), which XML "
            + "does not allow"
        )
      }
      index += 1
    }
    return notUTF8.map { MarkupSyntaxError(offset: $0, reason: "", isNotUTF8: true) }
  }

  private mutating func document() throws(MarkupSyntaxError) -> MarkupDocument {
    var document = MarkupDocument(nodes: [])
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      document.byteOrderMark = true
      index = 3
    }
    var open: [(element: MarkupElement, offset: Int)] = []
    var sawRoot = false
    var sawDoctype = false
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
        if open.isEmpty {
          // Outside the root element only whitespace may stand between markup.
          skipWhitespace()
          guard index == bytes.count || bytes[index] == UInt8(ascii: "<") else {
            throw MarkupSyntaxError(
              offset: index,
              reason: sawRoot ? "text after the root element" : "text before the root element"
            )
          }
          continue
        }
        let text = try self.text()
        if !isWhitespace(text) || open.last!.element.preservesContent {
          append(.text(text))
        }
        continue
      }
      if hasPrefix("<?") {
        let instruction = try processingInstruction()
        append(.verbatim(String(decoding: instruction, as: UTF8.self)))
      } else if hasPrefix("<!--") {
        let comment = try self.comment()
        append(.comment(String(decoding: comment.dropFirst(4).dropLast(3), as: UTF8.self)))
      } else if hasPrefix("<![CDATA[") {
        guard !open.isEmpty else {
          throw MarkupSyntaxError(offset: start, reason: "a CDATA section outside the root element")
        }
        guard let end = find("]]>", from: index + 9) else {
          // As expat: where the document ends, not where the section began.
          throw .unfinished(at: cdataEnd(from: start + 9), "the CDATA section is never closed")
        }
        index = end
        append(.cdata(String(decoding: bytes[(start + 9)..<(end - 3)], as: UTF8.self)))
      } else if hasPrefix("<!DOCTYPE"), open.isEmpty {
        // Out of place, it is where expat stops reading a declaration's keyword.
        guard !sawRoot else {
          try unknownDeclaration(inContent: false, reason: "a DOCTYPE after the root element")
        }
        guard !sawDoctype else {
          try unknownDeclaration(inContent: false, reason: "a second DOCTYPE")
        }
        sawDoctype = true
        append(.verbatim(try doctype()))
      } else if hasPrefix("<!") {
        try unknownDeclaration(inContent: !open.isEmpty)
      } else if hasPrefix("</") {
        guard let element = open.last?.element else {
          // Where expat points: at the slash, before reading the name.
          throw MarkupSyntaxError(offset: start + 1, reason: "an end tag with no open element")
        }
        index += 2
        let nameOffset = index
        guard index < bytes.count else {
          throw .unfinished(at: start, "the end tag is never closed")
        }
        let name = try self.name()
        let spaced = skipWhitespace()
        guard index < bytes.count else {
          // After a space only ">" may come, so a bad character there is the error.
          if spaced, let badCharacter { throw badCharacter }
          throw .unfinished(at: start, "the end tag </\(name)> is never closed")
        }
        guard bytes[index] == UInt8(ascii: ">") else {
          throw MarkupSyntaxError(offset: index, reason: "expected \">\" to end </\(name)>")
        }
        index += 1
        guard element.name == name else {
          throw MarkupSyntaxError(
            offset: nameOffset,
            reason: "expected </\(element.name)>, found </\(name)>"
          )
        }
        open.removeLast()
      } else {
        if open.isEmpty && sawRoot {
          // As expat: where the tag begins, or at what follows "<" when no name does.
          let reason = "a second root element"
          guard start + 1 < bytes.count else {
            // expat takes "<" and a UTF-8 lead byte, even of a bad character, for a tag.
            if let badByte, badByte >= 0xC0, badByte <= 0xF4 {
              throw MarkupSyntaxError(offset: start, reason: reason)
            }
            throw badCharacter ?? .unfinished(at: start, reason)
          }
          let named = isNameStart(bytes[start + 1])
          throw MarkupSyntaxError(offset: named ? start : start + 1, reason: reason)
        }
        index += 1
        let element: MarkupElement
        let selfClosing: Bool
        do {
          (element, selfClosing) = try startTag()
        } catch where error.atEnd {
          // expat points at the tag's "<" for a tag the document ends in.
          throw .unfinished(at: start, error.reason)
        }
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
      throw .unfinished(
        at: contentEnd,
        "the element <\(element.name)> opened at \(opened) is never closed"
      )
    }
    guard sawRoot else {
      throw .unfinished(at: bytes.count, "the document has no root element")
    }
    return document
  }

  /// Where a construct of the content that is open at the end is reported, as expat reports
  /// it: at the end, but before a carriage return the document ends in (in content, expat
  /// holds one back until it knows whether a line feed follows).
  private var contentEnd: Int {
    bytes.count == documentCount && bytes.last == 0x0D ? bytes.count - 1 : bytes.count
  }

  /// Where a CDATA section whose contents start at `contentStart` and are open at the end is
  /// reported: at ``contentEnd``, and also before one or two "]" the document ends in, which
  /// expat holds back as the start of "]]>".
  private func cdataEnd(from contentStart: Int) -> Int {
    guard bytes.count == documentCount, contentEnd == bytes.count else { return contentEnd }
    var end = bytes.count
    while end > contentStart, end > bytes.count - 2, bytes[end - 1] == UInt8(ascii: "]") {
      end -= 1
    }
    return end
  }

  // MARK: - Pieces

  private mutating func startTag() throws(MarkupSyntaxError) -> (MarkupElement, Bool) {
    let tagStart = index - 1
    let element = MarkupElement(name: try name(), attributes: [])
    element.closesItself = true
    // As in expat, a duplicate attribute or a reference to an undeclared entity or a character
    // XML does not allow is an error once the whole tag has been read: one in its syntax first.
    // Where only ASCII may come (not a name), a bad character the tag is cut by is the error.
    var deferred: MarkupSyntaxError?
    while true {
      let hadWhitespace = skipWhitespace()
      guard index < bytes.count else {
        // Right after a value: a space, ">" or "/>".
        if !hadWhitespace, !element.attributes.isEmpty, let badCharacter { throw badCharacter }
        throw .unfinished(at: index, "the tag <\(element.name)> is never closed")
      }
      if bytes[index] == UInt8(ascii: ">") {
        if let deferred { throw deferred }
        index += 1
        return (element, false)
      }
      if bytes[index] == UInt8(ascii: "/") {
        index += 1
        guard index < bytes.count else {
          throw badCharacter ?? .unfinished(at: index, "the tag <\(element.name)> is never closed")
        }
        guard bytes[index] == UInt8(ascii: ">") else {
          throw MarkupSyntaxError(
            offset: index,
            reason: "expected \">\" after \"/\" in the tag <\(element.name)>"
          )
        }
        if let deferred { throw deferred }
        index += 1
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
      if deferred == nil, element.attributes.contains(where: { $0.name == name }) {
        deferred = MarkupSyntaxError(
          offset: nameOffset,
          reason: "the attribute \"\(name)\" appears twice in <\(element.name)>"
        )
      }
      let spaced = skipWhitespace()
      guard index < bytes.count else {
        // After a space only "=" may come (right after the name, the name may go on).
        if spaced, let badCharacter { throw badCharacter }
        throw .unfinished(at: index, "the tag <\(element.name)> is never closed")
      }
      guard bytes[index] == UInt8(ascii: "=") else {
        throw MarkupSyntaxError(
          offset: index,
          reason: "expected \"=\" after the attribute \"\(name)\""
        )
      }
      index += 1
      skipWhitespace()
      guard index < bytes.count else {
        throw badCharacter ?? .unfinished(at: index, "the tag <\(element.name)> is never closed")
      }
      guard bytes[index] == 0x22 || bytes[index] == 0x27 else {
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
        if bytes[index] == UInt8(ascii: "&") {
          if var error = try reference(), deferred == nil {
            // expat names the tag for an undeclared entity, the reference for a character.
            if error.reason.hasPrefix("the entity") { error.offset = tagStart }
            deferred = error
          }
        } else {
          index += 1
        }
      }
      guard index < bytes.count else {
        throw .unfinished(
          at: valueStart - 1,
          "the value of the attribute \"\(name)\" is never closed"
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
        if let error = try reference() { throw error }
      } else if bytes[index] == UInt8(ascii: "]"), hasPrefix("]]>") {
        // expat points at its ">".
        throw MarkupSyntaxError(offset: index + 2, reason: "\"]]>\" in text")
      } else {
        index += 1
      }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Checks the reference at `index` (`&name;`, `&#10;`, `&#x1F;`) and moves past it. A
  /// malformed one is an error at the first byte that cannot continue it, as in expat; a
  /// well-formed one to an undeclared entity or a character XML does not allow is returned.
  private mutating func reference() throws(MarkupSyntaxError) -> MarkupSyntaxError? {
    let start = index
    index += 1
    if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
      index += 1
      let hex = index < bytes.count && bytes[index] == UInt8(ascii: "x")
      if hex { index += 1 }
      let digitsStart = index
      var value = 0
      while index < bytes.count, let digit = digitValue(bytes[index], hex: hex) {
        // Past U+10FFFF it stays too large, without overflowing.
        value = min(value * (hex ? 16 : 10) + digit, 0x110000)
        index += 1
      }
      if index > digitsStart, index < bytes.count, bytes[index] == UInt8(ascii: ";") {
        index += 1
        guard isXMLCharacter(value) else {
          let number = String(decoding: bytes[start..<index], as: UTF8.self)
          return MarkupSyntaxError(
            offset: start,
            reason: "the character reference \(number) names a character XML does not allow"
          )
        }
        return nil
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
          return MarkupSyntaxError(
            offset: start,
            reason: "the entity \"&\(name);\" is not declared (XML predefines only &amp;, &lt;, "
              + "&gt;, &apos; and &quot;)"
          )
        }
        return nil
      }
    }
    let numeric = start + 1 < bytes.count && bytes[start + 1] == UInt8(ascii: "#")
    guard index < bytes.count else {
      // A character reference takes only digits, "x" and ";": cut short by a bad character,
      // it is that character's error, where it stands, as in expat (in a reference to an
      // entity, a name may go on with any character, and the error is the reference's).
      if numeric, let badCharacter { throw badCharacter }
      throw .unfinished(at: start, "the reference is never closed")
    }
    let reason =
      if index == start + 1 {
        "\"&\" that does not begin a reference (write &amp; for a literal &)"
      } else if numeric, index == start + 2 || (index == start + 3 && bytes[start + 2] == 0x78) {
        "a character reference without digits"
      } else {
        "a reference not ended by \";\""
      }
    throw MarkupSyntaxError(offset: index, reason: reason)
  }

  private mutating func name() throws(MarkupSyntaxError) -> String {
    let start = index
    guard index < bytes.count else { throw .unfinished(at: index, "expected a name") }
    guard isNameStart(bytes[index]) else {
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
        while position < bytes.count, isXMLWhitespace(bytes[position]) { position += 1 }
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
    throw .unfinished(at: start, "the DOCTYPE is never closed")
  }

  /// `<?target …?>`: the target is a name, not `xml` in another case, and is followed by a space
  /// or `?>`; `<?xml …?>` is the XML declaration, only at the start, checked by
  /// ``checkDeclaration(from:to:)``.
  private mutating func processingInstruction() throws(MarkupSyntaxError) -> ArraySlice<UInt8> {
    let start = index
    index += 2
    guard index < bytes.count else {
      throw .unfinished(at: start, "the processing instruction is never closed")
    }
    let target = try name()
    // A target the document ends in may still go on: it is checked once something follows.
    guard index < bytes.count else {
      throw .unfinished(at: start, "the processing instruction is never closed")
    }
    let lowercased = target.lowercased()
    guard lowercased != "xml" || target == "xml" else {
      throw MarkupSyntaxError(
        offset: index,
        reason: "the processing instruction target \"\(target)\", which XML reserves"
      )
    }
    guard isXMLWhitespace(bytes[index]) || hasPrefix("?>") else {
      // expat points past a "?" that does not end the instruction.
      let question = bytes[index] == UInt8(ascii: "?")
      guard !question || index + 1 < bytes.count else {
        // Only ">" may follow this "?".
        throw badCharacter ?? .unfinished(at: start, "the processing instruction is never closed")
      }
      throw MarkupSyntaxError(
        offset: question ? index + 1 : index,
        reason: "expected a space or \"?>\" after the processing instruction target"
      )
    }
    guard let end = find("?>", from: index) else {
      throw .unfinished(at: start, "the processing instruction is never closed")
    }
    if target == "xml" {
      guard start == (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0) else {
        throw MarkupSyntaxError(
          offset: start,
          reason: "an XML declaration that is not at the start of the document"
        )
      }
      try checkDeclaration(from: index, to: end - 2)
    }
    index = end
    return bytes[start..<end]
  }

  /// The XML declaration's pseudo-attributes between `from` (after `<?xml`) and `end` (its
  /// `?>`): `version`, then optionally `encoding` and `standalone`, in that order, values of
  /// letters, digits, `.`, `_` and `-`; each error where expat reports it.
  private mutating func checkDeclaration(from: Int, to end: Int) throws(MarkupSyntaxError) {
    let names = ["version", "encoding", "standalone"]
    var next = 0
    var position = from
    func fail(_ offset: Int, _ reason: String) -> MarkupSyntaxError {
      MarkupSyntaxError(offset: offset, reason: "an XML declaration with \(reason)")
    }
    while true {
      let spaced = position < end && isXMLWhitespace(bytes[position])
      while position < end, isXMLWhitespace(bytes[position]) { position += 1 }
      if position == end {
        guard next > 0 else { throw fail(from, "no version") }
        return
      }
      // As expat: after standalone, only spaces, whatever comes next (not read as a
      // pseudo-attribute, so not first checked for its "=").
      guard next < names.count else { throw fail(position, "more after standalone") }
      guard spaced else { throw fail(position, "no space before a pseudo-attribute") }
      // As expat: a name runs to a space or "=", and is checked once its value is read.
      let nameStart = position
      while position < end, !isXMLWhitespace(bytes[position]), bytes[position] != 0x3D {
        position += 1
      }
      let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
      guard !name.isEmpty else { throw fail(nameStart, "a value without a name") }
      while position < end, isXMLWhitespace(bytes[position]) { position += 1 }
      guard position < end, bytes[position] == UInt8(ascii: "=") else {
        throw fail(position, "no \"=\" after \(name)")
      }
      position += 1
      while position < end, isXMLWhitespace(bytes[position]) { position += 1 }
      guard position < end, bytes[position] == 0x22 || bytes[position] == 0x27 else {
        throw fail(position, "no quoted value for \(name)")
      }
      let quote = bytes[position]
      position += 1
      let valueStart = position
      while position < end, bytes[position] != quote {
        guard isDeclarationValueByte(bytes[position]) else {
          throw fail(position, "a value that is not letters, digits and \"._-\"")
        }
        position += 1
      }
      guard position < end else { throw fail(position, "an unclosed value for \(name)") }
      let value = String(decoding: bytes[valueStart..<position], as: UTF8.self)
      position += 1
      guard let found = names[next...].firstIndex(of: name), next > 0 || found == 0 else {
        throw fail(nameStart, "\"\(name)\" out of place (version, then encoding, then standalone)")
      }
      next = found + 1
      switch name {
      case "encoding" where !isEncodingName(value):
        throw fail(valueStart, "an encoding name that is not one")
      case "standalone" where value != "yes" && value != "no":
        throw fail(valueStart, "standalone neither \"yes\" nor \"no\"")
      case "standalone":
        standalone = value == "yes"
      default:
        break
      }
    }
  }

  /// `<!--` … `-->`, with no `--` inside (as in XML, and expat: the error is at the byte after
  /// the `--`).
  private mutating func comment() throws(MarkupSyntaxError) -> ArraySlice<UInt8> {
    let start = index
    guard let dashes = find("--", from: start + 4) else {
      throw .unfinished(at: start, "the comment is never closed")
    }
    guard dashes < bytes.count else {
      // Only ">" may follow "--".
      throw badCharacter ?? .unfinished(at: start, "the comment is never closed")
    }
    guard bytes[dashes] == UInt8(ascii: ">") else {
      throw MarkupSyntaxError(offset: dashes, reason: "\"--\" inside a comment")
    }
    index = dashes + 1
    return bytes[start..<index]
  }

  /// `<!` that begins neither a comment nor a CDATA section (nor, before the root, a DOCTYPE):
  /// always an error, at the first byte that cannot continue one of them, or at the `<` when
  /// the document ends first.
  private mutating func unknownDeclaration(
    inContent: Bool,
    reason: String = "\"<!\" that begins no comment or section"
  ) throws(MarkupSyntaxError) -> Never {
    let start = index
    var position = start + 2
    // expat decides on `<![` in content only with six more bytes of the document to compare
    // with "CDATA[" (a bad character among them too): with fewer, it is cut short.
    if inContent, bytes.hasPrefix("<![", at: start), documentCount - (start + 3) < 6 {
      throw MarkupSyntaxError(offset: start, reason: reason)
    }
    // Outside the root, expat reads `<![` and `<!` with a keyword and a space as declarations
    // out of place (an error where they begin), and stops in the keyword at anything else.
    if !inContent, position < bytes.count, bytes[position] == UInt8(ascii: "[") {
      throw MarkupSyntaxError(offset: start, reason: reason)
    }
    if !inContent, position < bytes.count, isKeywordByte(bytes[position]) {
      while position < bytes.count, isKeywordByte(bytes[position]) { position += 1 }
      guard position < bytes.count else { throw badCharacter ?? .unfinished(at: start, reason) }
      var spaced = isXMLWhitespace(bytes[position])
      if bytes[position] == UInt8(ascii: "%") {
        // A parameter entity's name must follow at once (`<!ENTITY% p` is refused at the "%").
        guard position + 1 < bytes.count else {
          // Any character but a space or "%" is a name here, to expat, a bad one too.
          if badCharacter != nil { throw MarkupSyntaxError(offset: start, reason: reason) }
          throw .unfinished(at: start, reason)
        }
        let next = bytes[position + 1]
        spaced = !isXMLWhitespace(next) && next != UInt8(ascii: "%")
      }
      throw MarkupSyntaxError(offset: spaced ? start : position, reason: reason)
    }
    let candidates = ["<!--", "<![CDATA["]
    while position < bytes.count {
      let length = position - start
      let continues = candidates.contains {
        length < $0.utf8.count && bytes.hasPrefix(String($0.prefix(length + 1)), at: start)
      }
      if !continues { throw MarkupSyntaxError(offset: position, reason: reason) }
      position += 1
    }
    // Cut short by a bad character: none continues a keyword, so it is the error, as in expat.
    throw badCharacter ?? .unfinished(at: start, reason)
  }

  private static let predefinedEntities: Set<String> = ["amp", "lt", "gt", "apos", "quot"]

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
    while index < bytes.count, isXMLWhitespace(bytes[index]) { index += 1 }
    return index > start
  }

  private func isWhitespace(_ text: String) -> Bool {
    text.utf8.allSatisfy(isXMLWhitespace)
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

/// XML's `S`: space, tab, line feed, carriage return (not form feed, unlike HTML).
private func isXMLWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
}

/// A byte of a declaration's keyword (`DOCTYPE`, `ENTITY`…) as expat's DTD tokenizer reads it:
/// an ASCII letter, `_` or `:`.
private func isKeywordByte(_ byte: UInt8) -> Bool {
  (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == 0x5F
    || byte == 0x3A
}

/// XML's `Char`, for character references.
private func isXMLCharacter(_ value: Int) -> Bool {
  value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
    || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
}

/// A byte of a pseudo-attribute's value in the XML declaration, as expat reads it: letters,
/// digits, `.`, `_` and `-`.
private func isDeclarationValueByte(_ byte: UInt8) -> Bool {
  (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2E || byte == 0x2D
}

/// XML's `EncName`: a letter, then letters, digits, `.`, `_` and `-`.
private func isEncodingName(_ name: String) -> Bool {
  guard let first = name.utf8.first, first | 0x20 >= UInt8(ascii: "a"),
    first | 0x20 <= UInt8(ascii: "z")
  else { return false }
  return name.utf8.allSatisfy {
    ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
      || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D
  }
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
