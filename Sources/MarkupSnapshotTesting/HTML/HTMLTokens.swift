/// The HTML standard's tokenizer, as far as the canonical form needs it, in scanners of the
/// input that both ``HTMLReader`` and ``DirectHTMLPrinter`` call: what a `<` begins, comments,
/// doctypes, a tag's attributes, the end of raw text. Methods of the input rather than of a
/// builder, whose calls would copy the builder's state to read a few bytes.

/// What a `<` begins.
enum HTMLMarkupKind {
  case comment, declaration, processingInstruction, startTag
  /// `</` and a letter.
  case endTag
  /// `</>`, which the tokenizer drops.
  case emptyEndTag
  /// `</` and neither a letter nor `>`: a bogus comment from after the `/`.
  case bogusEndTag
}


/// An attribute of the tag read last, as ranges of the input.
struct TagAttribute {
  var nameStart: Int
  var nameEnd: Int
  /// The range of the value between its quotes, or `nil` for an attribute without one.
  var value: (Int, Int)?
  /// Single-quoted or unquoted: a `"` in it is written `&quot;`.
  var escapesQuotes = false

  init(nameStart: Int, nameEnd: Int) {
    self.nameStart = nameStart
    self.nameEnd = nameEnd
  }
}

/// The attributes of the tag read last: the first `count` of an array reused from tag to tag.
struct TagAttributes {
  private var list: [TagAttribute] = []
  var count = 0
  /// Whether they are written as the direct printer writes them: one space before each,
  /// lowercase names, values in double quotes right after `=`, none dropped as a duplicate, `>`
  /// right after the last.
  var asPrinted = false
  /// Whether a name has bytes beyond ASCII.
  var nonASCIIName = false

  subscript(position: Int) -> TagAttribute { list[position] }

  mutating func append(_ attribute: TagAttribute) {
    if count < list.count {
      list[count] = attribute
    } else {
      list.append(attribute)
    }
    count += 1
  }
}

extension [UInt8] {
  /// Reads a tag's attributes from `index` through its `>` into `attributes`, dropping a
  /// duplicate name (in any case): whether the tag ends in `/>`, or `nil` if the input ends
  /// inside it (which a browser drops).
  func readAttributes(at index: inout Int, into attributes: inout TagAttributes) -> Bool? {
    attributes.count = 0
    attributes.nonASCIIName = false
    var canonical = true
    while true {
      let spaceStart = index
      while index < self.count, isSpace(self[index]) { index += 1 }
      guard index < self.count else { return nil }
      if self[index] == UInt8(ascii: ">") {
        index += 1
        attributes.asPrinted = canonical && index == spaceStart + 1
        return false
      }
      if self[index] == UInt8(ascii: "/") {
        index += 1
        canonical = false
        if index < self.count, self[index] == UInt8(ascii: ">") {
          index += 1
          attributes.asPrinted = false
          return true
        }
        continue
      }
      if index != spaceStart + 1 || self[spaceStart] != 0x20 { canonical = false }
      let nameStart = index
      // A leading `=` belongs to the name.
      index = ByteScan.firstHit(
        in: self,
        from: index + 1,
        to: self.count,
        candidates: {
          ByteScan.spaceCandidates($0) | ByteScan.equal($0, UInt8(ascii: "/"))
            | ByteScan.equal($0, UInt8(ascii: ">")) | ByteScan.equal($0, UInt8(ascii: "="))
        },
        isHit: {
          isSpace($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ">")
            || $0 == UInt8(ascii: "=")
        }
      )
      let (capitals, nonASCII) = letterCase(from: nameStart, to: index)
      if nonASCII { attributes.nonASCIIName = true }
      if capitals { canonical = false }
      var attribute = TagAttribute(nameStart: nameStart, nameEnd: index)
      let nameEnd = index
      while index < self.count, isSpace(self[index]) { index += 1 }
      if index < self.count, self[index] == UInt8(ascii: "=") {
        if index != nameEnd { canonical = false }
        index += 1
        let valueStart = index
        while index < self.count, isSpace(self[index]) { index += 1 }
        guard index < self.count else { return nil }
        if index != valueStart { canonical = false }
        let quote = self[index]
        if quote == 0x22 || quote == 0x27 {
          let start = index + 1
          let end = ByteScan.first(quote, in: self, from: start, to: self.count)
          guard end < self.count else { return nil }
          index = end + 1
          attribute.value = (start, end)
          attribute.escapesQuotes = quote == 0x27
          if quote == 0x27 { canonical = false }
        } else {
          canonical = false
          let start = index
          while index < self.count, !isSpace(self[index]),
            self[index] != UInt8(ascii: ">")
          {
            index += 1
          }
          if index > start {
            attribute.value = (start, index)
            attribute.escapesQuotes = true
          }
        }
      } else {
        index = nameEnd  // The whitespace is read again, before the next attribute.
      }
      if isDuplicate(attribute, of: attributes) {
        canonical = false
      } else {
        attributes.append(attribute)
      }
    }
  }

  /// Whether an attribute read so far has the name of `attribute`, in any case.
  private func isDuplicate(_ attribute: TagAttribute, of attributes: TagAttributes) -> Bool {
    let count = attribute.nameEnd - attribute.nameStart
    for position in 0..<attributes.count {
      let other = attributes[position]
      guard other.nameEnd - other.nameStart == count else { continue }
      if equalIgnoringCase(attribute.nameStart, other.nameStart, count: count) { return true }
    }
    return false
  }

  /// Whether ASCII capitals, and whether non-ASCII bytes, are among those from `start` to `end`
  /// (not empty); `capitals` is exact when there are none of the latter.
  func letterCase(from start: Int, to end: Int) -> (capitals: Bool, nonASCII: Bool) {
    if end - start <= 8, start + 8 <= self.count {
      let word = ByteScan.word(self, at: start) & (UInt64.max &>> UInt64(64 - 8 * (end - start)))
      return (ByteScan.capitals(word) != 0, word & ByteScan.highs != 0)
    }
    var (capitals, nonASCII) = (false, false)
    for position in start..<end {
      let byte = self[position]
      if byte >= 0x41 && byte <= 0x5A { capitals = true }
      if byte >= 0x80 { nonASCII = true }
    }
    return (capitals, nonASCII)
  }

  /// What the `<` at `index` begins, or `nil` where it is text.
  func markupKind(at index: Int) -> HTMLMarkupKind? {
    guard index + 1 < self.count else { return nil }
    let next = self[index + 1]
    if isASCIILetter(next) { return .startTag }
    switch next {
    case UInt8(ascii: "!"): return hasPrefix("<!--", at: index) ? .comment : .declaration
    case UInt8(ascii: "?"): return .processingInstruction
    case UInt8(ascii: "/"):
      guard index + 2 < self.count else { return nil }
      let third = self[index + 2]
      if isASCIILetter(third) { return .endTag }
      return third == UInt8(ascii: ">") ? .emptyEndTag : .bogusEndTag
    default: return nil
    }
  }

  /// Where the text that starts at `start` ends: at the next `<` that begins markup, or at the
  /// end of the input.
  func textEnd(from start: Int) -> Int {
    var position = start + 1
    while true {
      position = ByteScan.first(UInt8(ascii: "<"), in: self, from: position, to: self.count)
      if position == self.count || markupKind(at: position) != nil { return position }
      position += 1
    }
  }

  /// The comment whose `<!--` is at `index`: the range of its text and where reading goes on.
  func comment(at index: Int) -> (start: Int, end: Int, next: Int) {
    if hasPrefix("<!-->", at: index) { return (0, 0, index + 5) }
    if hasPrefix("<!--->", at: index) { return (0, 0, index + 6) }
    let start = index + 4
    var end = start
    while end < self.count {
      if hasPrefix("-->", at: end) { return (start, end, end + 3) }
      if hasPrefix("--!>", at: end) { return (start, end, end + 4) }
      end += 1
    }
    return (start, Swift.min(end, self.count), self.count)
  }

  /// A bogus comment's text from `start` to the next `>` (as the tokenizer treats `<?…>`, `<!…>`
  /// and `</ …>`), and where reading goes on.
  func bogusComment(from start: Int) -> (text: Int, next: Int) {
    var end = start
    while end < self.count, self[end] != UInt8(ascii: ">") { end += 1 }
    return (end, Swift.min(end + 1, self.count))
  }

  /// The end of the doctype whose `<!` is at `index` (past its `>`), or `nil` if the declaration
  /// is not `<!doctype`.
  func doctypeEnd(at index: Int) -> Int? {
    guard index + 9 <= self.count, hasPrefixIgnoringCase("<!doctype", at: index) else {
      return nil
    }
    var end = index
    while end < self.count, self[end] != UInt8(ascii: ">") { end += 1 }
    return Swift.min(end + 1, self.count)
  }

  /// Where the raw text that starts at `start` ends: the offset of the `<` of its end tag (the
  /// element's name, `count` bytes at `nameStart`, in any case, then whitespace, `/` or `>`) and
  /// of what follows the name; `nil` if no such end tag comes.
  func rawTextEnd(from start: Int, nameAt nameStart: Int, count: Int) -> (end: Int, nameEnd: Int)?
  {
    var position = start
    while let found = offset(pastEndTagOpenFrom: position) {
      let nameEnd = found + count
      // `</script` at the very end is text, as the tokenizer emits it.
      if nameEnd < self.count, equalIgnoringCase(found, nameStart, count: count),
        isSpace(self[nameEnd]) || self[nameEnd] == UInt8(ascii: "/")
          || self[nameEnd] == UInt8(ascii: ">")
      {
        return (found - 2, nameEnd)
      }
      position = found
    }
    return nil
  }

  func offset(pastEndTagOpenFrom start: Int) -> Int? {
    var position = start
    while position + 2 <= self.count {
      position = ByteScan.first(UInt8(ascii: "<"), in: self, from: position, to: self.count - 1)
      if position == self.count - 1 { return nil }
      if self[position + 1] == UInt8(ascii: "/") { return position + 2 }
      position += 1
    }
    return nil
  }

  /// The offset past the newline the parser drops at `start` after `<pre>`, `<listing>` and
  /// `<textarea>`: a line feed, or a character reference to one (`&#10;`, `&#x0a;`), which the
  /// tokenizer hands over as the same character.
  func afterLeadingNewline(from start: Int, to end: Int) -> Int {
    guard start < end else { return start }
    if self[start] == 0x0A { return start + 1 }
    let limit = Swift.min(end, start + 16)
    guard limit - start > 2, self[start] == UInt8(ascii: "&"),
      self[start + 1] == UInt8(ascii: "#")
    else { return start }
    let hex = self[start + 2] | 0x20 == UInt8(ascii: "x")
    let digitsStart = start + (hex ? 3 : 2)
    var position = digitsStart
    var value = 0
    while position < limit, let digit = digitValue(self[position], hex: hex) {
      value = value * (hex ? 16 : 10) + digit
      position += 1
    }
    guard value == 0x0A, position > digitsStart else { return start }
    if position < limit, self[position] == UInt8(ascii: ";") { position += 1 }
    return position
  }

  /// Whether the bytes at `offset` are `prefix` (lowercase) with ASCII letters in any case.
  func hasPrefixIgnoringCase(_ prefix: String, at offset: Int) -> Bool {
    guard offset >= 0, offset + prefix.utf8.count <= self.count else { return false }
    var position = offset
    for byte in prefix.utf8 {
      if asciiLowercased(self[position]) != byte { return false }
      position += 1
    }
    return true
  }

  func equalIgnoringCase(_ first: Int, _ second: Int, count: Int) -> Bool {
    for position in 0..<count
    where asciiLowercased(self[first + position]) != asciiLowercased(self[second + position]) {
      return false
    }
    return true
  }
}

func asciiLowercased(_ byte: UInt8) -> UInt8 {
  byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
}

/// `isWhitespaceByte` as one comparison and one bit test: space, tab, line feed, form feed and
/// carriage return.
@inline(__always)
func isSpace(_ byte: UInt8) -> Bool {
  byte <= 0x20 && (UInt64(1) << UInt64(byte)) & 0x1_0000_3600 != 0
}
