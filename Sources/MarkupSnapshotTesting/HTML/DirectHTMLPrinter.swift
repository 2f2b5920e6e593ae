import SnapshotTesting

/// Writes the canonical text of an HTML page straight from its tokens, without building a tree:
/// the fast path of `.html`, giving byte for byte what ``HTMLReader`` and ``CanonicalPrinter``
/// give, or `nil` when the page needs something it does not do.
///
/// It keeps only the stack of open elements (a name as a range of the input, its traits, and
/// how much of it is printed) and the list of active formatting elements, and writes slices of
/// the input into one buffer. What it cannot print from the tokens alone it refuses, for the
/// whole page, and the tree reader takes over: formatting elements that would be reopened
/// (`<p><b>x<p>y`) or repaired by the adoption agency (`<b><p>x</b>`); in SVG and MathML, HTML
/// inside an integration point (`foreignObject`, `mi`…), HTML tags that leave foreign content,
/// CDATA sections and foreign content inside `pre`; `plaintext`, attributes on a second `html`
/// or `body` tag, `image`, and names (or quoting) where Unicode equivalence would decide what the
/// tree reader's `String`s do.
///
/// Every rule it does follow is the tree reader's, in the same order; `DirectHTMLPrinterTests`
/// runs both on every page of the corpora and on random token soups and requires equal text.
///
/// Iterative, as the tree reader: depth costs memory on the heap, never the call stack.
/// - Complexity: O(*n* × *d*) for *n* bytes and an open-element depth of *d* (usually small).
struct DirectHTMLPrinter {
  /// The canonical text of `bytes` (valid UTF-8, as ``MarkupText`` passes them), or `nil` when
  /// the tree reader must read the page.
  ///
  /// The text is written into a buffer of `capacity` bytes (by default what a one-line page's
  /// canonical text takes, with room to spare), which grows if the text outgrows it (deep
  /// nesting, many implied end tags), and is copied into the `String` at the end.
  static func canonicalText(_ bytes: [UInt8], capacity: Int? = nil) -> String? {
    var printer = DirectHTMLPrinter(
      bytes: bytes,
      output: OutputBytes(capacity: capacity ?? (bytes.count * 2 + 256))
    )
    do {
      try printer.run()
    } catch {
      return nil
    }
    return printer.output.makeString()
  }

  /// Thrown where the page needs the tree reader.
  struct Unsupported: Error {}

  private let bytes: [UInt8]
  private var index = 0
  private var output: OutputBytes
  /// The table of names, read once per page rather than through a global.
  private let names = PackedNameTable.shared
  private var open = Array<OpenTag>()
  /// How many open elements have each listed name ID, as the tree reader's stack counts them.
  private var counts = Array<Int32>(repeating: 0, count: HTMLElementTraits.nameCount)
  private var formatting = Array<FormattingEntry>()
  private var serial = 0
  /// The attributes of the tag read last: the first `attributeCount` (the array is reused).
  private var attributes = Array<TagAttribute>()
  private var attributeCount = 0
  /// Whether the attributes read last are written as the printer writes them (see
  /// ``readAttributes()``).
  private var attributesAsPrinted = false
  /// Where the start tag read last begins and ends in the input, when all of it is written there
  /// as the printer writes it, so that it is copied as it is; `end` is 0 otherwise.
  private var sourceTag = (start: 0, end: 0)
  private var quirks = true
  private var sawElement = false
  private var dropNextNewline = false
  private var bodyStarted = false
  /// Whether the last top-level node is text still being written (its newline not yet).
  private var documentEndsInText = false
  /// Whether the text being written has whitespace waiting to become one space.
  private var pendingSpace = false
  /// Where the normalised text being written began in `output`.
  private var textStart = 0

  private init(bytes: [UInt8], output: OutputBytes) {
    self.bytes = bytes
    self.output = output
  }

  private mutating func run() throws(Unsupported) {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      output.append("\u{FEFF}")
      index = 3
    }
    while index < bytes.count {
      // The tree reader says where a page nests too deep.
      if open.count > MarkupDocument.maximumDepth { throw Unsupported() }
      if bytes[index] == UInt8(ascii: "<"), let markup = bytes.markupKind(at: index) {
        switch markup {
        case .comment: comment()
        case .declaration: try declaration()
        case .processingInstruction: bogusComment(from: index + 1)
        case .endTag: try endTag()
        case .startTag: try startTag()
        }
      } else {
        try text()
      }
    }
    if open.count > MarkupDocument.maximumDepth { throw Unsupported() }
    while !open.isEmpty { popLast() }
    if documentEndsInText { output.append(0x0A) }
  }

  enum MarkupKind { case comment, declaration, processingInstruction, endTag, startTag }

  // MARK: - Tokens

  private mutating func text() throws(Unsupported) {
    let start = index
    var position = index + 1
    while true {
      position = ByteScan.first(UInt8(ascii: "<"), in: bytes, from: position, to: bytes.count)
      if position == bytes.count { break }
      index = position
      if bytes.markupKind(at: index) != nil { break }
      position += 1
    }
    index = position
    try insertText(from: start, to: index)
  }

  private mutating func comment() {
    if bytes.hasPrefix("<!-->", at: index) {
      index += 5
      writeComment(from: 0, to: 0)
      return
    }
    if bytes.hasPrefix("<!--->", at: index) {
      index += 6
      writeComment(from: 0, to: 0)
      return
    }
    let start = index + 4
    var end = start
    while end < bytes.count {
      if bytes.hasPrefix("-->", at: end) {
        index = end + 3
        break
      }
      if bytes.hasPrefix("--!>", at: end) {
        index = end + 4
        break
      }
      end += 1
    }
    if end >= bytes.count { index = bytes.count }
    writeComment(from: start, to: min(end, bytes.count))
  }

  private mutating func declaration() throws(Unsupported) {
    var isDoctype = index + 9 <= bytes.count
    if isDoctype {
      for (offset, letter) in "doctype".utf8.enumerated()
      where bytes[index + 2 + offset] | 0x20 != letter {
        isDoctype = false
        break
      }
    }
    if isDoctype {
      let start = index
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
      end = min(end + 1, bytes.count)
      index = end
      if !sawElement {
        // The tree reader compares `String`s, by characters: a non-ASCII byte right after the
        // prefix may join its last letter.
        if end - start > 14, bytes[start + 14] >= 0x80 { throw Unsupported() }
        quirks =
          !(end - start >= 14 && bytes.hasPrefixIgnoringCase("<!doctype html", at: start))
        let compact = beginChild()
        append(from: start, to: end)
        // One the page ends in is closed, as the tree reader closes it.
        if bytes[end - 1] != UInt8(ascii: ">") { output.append(UInt8(ascii: ">")) }
        if !compact { output.append(0x0A) }
      }
      return
    }
    if inForeignContent, bytes.hasPrefix("<![CDATA[", at: index) {
      throw Unsupported()
    }
    bogusComment(from: index + 2)
  }

  private mutating func bogusComment(from start: Int) {
    var end = start
    while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
    index = min(end + 1, bytes.count)
    writeComment(from: start, to: end)
  }

  private mutating func endTag() throws(Unsupported) {
    guard isASCIILetter(bytes[index + 2]) else {
      if bytes[index + 2] == UInt8(ascii: ">") {
        index += 3
      } else {
        bogusComment(from: index + 2)
      }
      return
    }
    index += 2
    if closesCurrentElement() { return }
    let name = try tagName()
    guard try readAttributes() != nil else {
      index = bytes.count
      return
    }
    try closeElement(name)
  }

  /// The most common end tag, that of the current element, as `</td>` (in any case): closed with
  /// no lookup, where the rules of ``closeElement(_:)`` would close just it. A formatting element
  /// leaves its list too, when its entry is the list's last (the adoption agency then does no
  /// more). Not for `body` and `html` (whose end tags are ignored), SVG and MathML. Whether it
  /// was one.
  @inline(__always)
  private mutating func closesCurrentElement() -> Bool {
    guard let last = open.indices.last, index + 8 <= bytes.count else { return false }
    let current = open[last].name
    guard current.count <= 7, !open[last].foreign, current.id != ID.body, current.id != ID.html
    else { return false }
    let isFormatting = current.traits.contains(.formatting)
    if isFormatting {
      guard let entry = formatting.last, !entry.isMarker, entry.serial == open[last].serial
      else { return false }
    }
    guard bytes.isEndTagName(current, at: index) else { return false }
    index += current.count + 1
    popLast()
    if isFormatting { formatting.removeLast() }
    return true
  }

  private mutating func startTag() throws(Unsupported) {
    let start = index
    index += 1
    let name = try tagName()
    guard let selfClosing = try readAttributes() else {
      index = bytes.count
      return
    }
    sourceTag = (start, attributesAsPrinted && !name.capitals ? index : 0)
    try openElement(name, withAttributes: true, selfClosing: selfClosing)
  }

  /// The name at `index`, packed and looked up as it is read.
  private mutating func tagName() throws(Unsupported) -> TagName {
    let start = index
    // A name of at most 7 bytes and the byte that ends it, in one word: most names.
    if start + 8 <= bytes.count {
      let word = ByteScan.word(bytes, at: start)
      let ends =
        ByteScan.spaceCandidates(word) | ByteScan.equal(word, UInt8(ascii: "/"))
        | ByteScan.equal(word, UInt8(ascii: ">")) | (word & ByteScan.highs)
      let count = ByteScan.first(ends)
      if count < 8 {
        let end = UInt8(truncatingIfNeeded: word &>> UInt64(8 * count))
        // Non-ASCII names compare as `String`s in the tree reader, by canonical equivalence.
        if end >= 0x80 { throw Unsupported() }
        // `/` and `>` are exact hits; a byte below `!` is whitespace or (rarely) part of the name.
        if end > 0x20 || isSpace(end) {
          let name = word & (UInt64(1) << UInt64(8 * count) &- 1)
          let capitals = ByteScan.capitals(name)
          index = start + count
          let lowered = name | capitals &>> 2
          return TagName(
            start: start,
            count: count,
            capitals: capitals != 0,
            traits: names.traits(of: PackedName(low: lowered, high: 0, count: count)),
            lowered: lowered
          )
        }
      }
    }
    var capitals = false
    var low: UInt64 = 0
    var high: UInt64 = 0
    while index < bytes.count {
      var byte = bytes[index]
      if isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { break }
      // Non-ASCII names compare as `String`s in the tree reader, by canonical equivalence.
      if byte >= 0x80 { throw Unsupported() }
      if byte >= 0x41, byte <= 0x5A {
        capitals = true
        byte |= 0x20
      }
      let position = index - start
      if position < 8 {
        low |= UInt64(byte) << UInt64(8 * position)
      } else if position < 15 {
        high |= UInt64(byte) << UInt64(8 * (position - 8))
      }
      index += 1
    }
    let count = index - start
    let traits =
      count <= 15 ? names.traits(of: PackedName(low: low, high: high, count: count)) : []
    return TagName(start: start, count: count, capitals: capitals, traits: traits, lowered: low)
  }

  /// Reads a tag's attributes into `attributes` through its `>`: whether it ends in `/>`, or
  /// `nil` if the input ends inside the tag.
  ///
  /// It also tells whether the attributes are written as the printer writes them (one space
  /// before each, lowercase names, values in double quotes right after `=`, none dropped as a
  /// duplicate, `>` right after the last): ``attributesAsPrinted``.
  private mutating func readAttributes() throws(Unsupported) -> Bool? {
    attributeCount = 0
    var canonical = true
    while true {
      let spaceStart = index
      while index < bytes.count, isSpace(bytes[index]) { index += 1 }
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: ">") {
        index += 1
        attributesAsPrinted = canonical && index == spaceStart + 1
        return false
      }
      if bytes[index] == UInt8(ascii: "/") {
        index += 1
        canonical = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
          index += 1
          attributesAsPrinted = false
          return true
        }
        continue
      }
      if index != spaceStart + 1 || bytes[spaceStart] != 0x20 { canonical = false }
      let nameStart = index
      // A leading `=` belongs to the name.
      index = ByteScan.firstHit(
        in: bytes,
        from: index + 1,
        to: bytes.count,
        candidates: {
          ByteScan.spaceCandidates($0) | ByteScan.equal($0, UInt8(ascii: "/"))
            | ByteScan.equal($0, UInt8(ascii: ">")) | ByteScan.equal($0, UInt8(ascii: "="))
        },
        isHit: {
          isSpace($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ">")
            || $0 == UInt8(ascii: "=")
        }
      )
      let (capitals, nonASCII) = bytes.letterCase(from: nameStart, to: index)
      // Non-ASCII names are compared as `String`s in the tree reader (for duplicates).
      if nonASCII { throw Unsupported() }
      if capitals { canonical = false }
      var attribute = TagAttribute(nameStart: nameStart, nameEnd: index)
      let nameEnd = index
      while index < bytes.count, isSpace(bytes[index]) { index += 1 }
      if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
        if index != nameEnd { canonical = false }
        index += 1
        let valueStart = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        if index != valueStart { canonical = false }
        let quote = bytes[index]
        if quote == 0x22 || quote == 0x27 {
          let start = index + 1
          let end = ByteScan.first(quote, in: bytes, from: start, to: bytes.count)
          guard end < bytes.count else { return nil }
          index = end + 1
          attribute.value = (start, end)
          attribute.escapesQuotes = quote == 0x27
          if quote == 0x27 { canonical = false }
        } else {
          canonical = false
          let start = index
          while index < bytes.count, !isSpace(bytes[index]),
            bytes[index] != UInt8(ascii: ">")
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
      if !isDuplicate(attribute) {
        if attributeCount < attributes.count {
          attributes[attributeCount] = attribute
        } else {
          attributes.append(attribute)
        }
        attributeCount += 1
      } else {
        canonical = false
      }
    }
  }

  /// Whether an attribute of the tag read so far has the name of `attribute`. (Mutating only
  /// because a non-mutating method, called from a mutating one, copies the printer's state.)
  private mutating func isDuplicate(_ attribute: TagAttribute) -> Bool {
    let count = attribute.nameEnd - attribute.nameStart
    for position in 0..<attributeCount {
      let other = attributes[position]
      guard other.nameEnd - other.nameStart == count else { continue }
      if bytes.equalIgnoringCase(attribute.nameStart, other.nameStart, count: count) {
        return true
      }
    }
    return false
  }

  /// The content of a raw text element up to its end tag: the range of its text and where
  /// reading goes on.
  private mutating func rawText(of name: TagName) throws(Unsupported) -> (Int, Int) {
    let start = index
    var end = bytes.count
    var after = bytes.count
    var position = start
    while let found = bytes.offset(pastEndTagOpenFrom: position) {
      let nameEnd = found + name.count
      if nameEnd < bytes.count, bytes.equalIgnoringCase(found, name.start, count: name.count),
        isSpace(bytes[nameEnd]) || bytes[nameEnd] == UInt8(ascii: "/")
          || bytes[nameEnd] == UInt8(ascii: ">")
      {
        end = found - 2
        index = nameEnd
        after = try readAttributes() == nil ? bytes.count : index
        break
      }
      position = found
    }
    index = after
    return (start, end)
  }

  // MARK: - Tree rules (the tree reader's, in its order)

  // The current element's fields are read one by one rather than through `open.last`: copying
  // the whole `OpenTag` out costs more than the rule it serves.

  @inline(__always)
  private var isTableContext: Bool {
    guard let last = open.indices.last, !open[last].foreign else { return false }
    return open[last].name.traits.contains(.tableContext)
  }

  @inline(__always)
  private var inForeignContent: Bool { !open.isEmpty && open[open.count - 1].foreign }

  /// The name ID of the current element, or -1 when none is open.
  @inline(__always)
  private var currentID: Int { open.isEmpty ? -1 : open[open.count - 1].name.id }

  private mutating func insertText(from tokenStart: Int, to end: Int) throws(Unsupported) {
    var start = tokenStart
    if dropNextNewline {
      dropNextNewline = false
      start = bytes.afterLeadingNewline(from: start, to: end)
      if start == end { return }
    }
    var whitespace = true
    for position in start..<end where !isSpace(bytes[position]) {
      whitespace = false
      break
    }
    if !whitespace, currentID == ID.head, !inForeignContent { popLast() }
    if !whitespace || bodyStarted, !isTableContext, !inForeignContent {
      try reconstructFormatting()
    }
    if whitespace, open.isEmpty || !open[open.count - 1].preserves { return }
    if !whitespace {
      sawElement = true
      bodyStarted = true
    }
    writeText(from: start, to: end)
  }

  private mutating func openElement(
    _ name: TagName,
    withAttributes: Bool,
    selfClosing: Bool = false
  ) throws(Unsupported) {
    if !withAttributes {
      attributeCount = 0
      sourceTag.end = 0
    }
    sawElement = true
    let traits = name.traits
    let id = name.id
    // The tree printer ends the page at any element named `plaintext`, even in SVG.
    if traits.contains(.plaintext) { throw Unsupported() }
    if inForeignContent {
      // HTML inside `foreignObject` or `mi`, and HTML tags that end SVG or MathML, need the
      // tree reader (`font` leaves it only with some attributes: it goes there too).
      if open[open.count - 1].name.traits.contains(.integrationPoint)
        || traits.contains(.foreignBreaker)
        || (name.count == 4 && bytes.hasPrefixIgnoringCase("font", at: name.start))
      {
        throw Unsupported()
      }
      try openForeignElement(name, selfClosing: selfClosing)
      return
    }
    if bytes.isForeignRoot(name) {
      bodyStarted = true
      if !isTableContext { try reconstructFormatting() }
      try openForeignElement(name, selfClosing: selfClosing)
      return
    }
    if id == ID.image { throw Unsupported() }
    let ruleID = traits.contains(.startTagRule) ? id : 0
    switch ruleID {
    case ID.html:
      if let root = open.first, root.name.id == ID.html {
        if attributeCount > 0 { throw Unsupported() }
        return
      }
      if bodyStarted || !open.isEmpty { return }
    case ID.body:
      if open.contains(where: { $0.name.id == ID.body }) {
        if attributeCount > 0 { throw Unsupported() }
        return
      }
      if bodyStarted { return }
      if currentID == ID.head { popLast() }
    case ID.head:
      if bodyStarted || counts[ID.head] > 0 || counts[ID.body] > 0 { return }
    default:
      if !traits.contains(.headContent) {
        if currentID == ID.head { popLast() }
        bodyStarted = true
      }
    }
    if traits.contains(.closesParagraph) || (id == ID.table && !quirks) {
      closeInScope(ID.paragraph, boundaries: [.scope, .button])
    }
    switch ruleID {
    case ID.td, ID.th:
      popToTable(keeping: [.tableRow, .tableSection])
    case ID.tr:
      popToTable(keeping: .tableSection)
    case _ where traits.contains(.heading):
      if !open.isEmpty, open[open.count - 1].name.traits.contains(.heading) { popLast() }
    case ID.li:
      closeListItem { $0 == ID.li }
      closeInScope(ID.paragraph, boundaries: [.scope, .button])
    case ID.dd, ID.dt:
      closeListItem { $0 == ID.dd || $0 == ID.dt }
      closeInScope(ID.paragraph, boundaries: [.scope, .button])
    case ID.a, ID.nobr:
      if formattingEntry(named: id) != nil {
        try adoptionAgency(name)
        if formattingEntry(named: id) != nil { throw Unsupported() }
      }
    case ID.button:
      closeInScope(ID.button, boundaries: .scope)
    case ID.option:
      if currentID == ID.option { popLast() }
    case ID.optgroup:
      if currentID == ID.option { popLast() }
      if currentID == ID.optgroup { popLast() }
    case ID.caption, ID.colgroup, ID.tbody, ID.thead, ID.tfoot:
      popToTable(keeping: [])
    default: break
    }
    if !traits.contains(.noReconstruction), !isTableContext { try reconstructFormatting() }
    serial += 1
    if traits.contains(.formatting) {
      formatting.append(FormattingEntry(serial: serial, depth: open.count, id: id, isMarker: false))
    } else if traits.contains(.marker) {
      formatting.append(FormattingEntry(serial: serial, depth: open.count, id: id, isMarker: true))
    }
    let compact = beginChild()
    try writeStartTag(name)
    if traits.contains(.void) {
      if !compact { output.append(0x0A) }
      return
    }
    if traits.contains(.rawText) {
      var (start, end) = try rawText(of: name)
      let textarea = id == ID.textarea
      if textarea { start = bytes.afterLeadingNewline(from: start, to: end) }
      if compact || start < end {
        if textarea { output.append(0x0A) }
        append(from: start, to: end)
      }
      writeEndTag(name)
      if !compact { output.append(0x0A) }
      return
    }
    let preformatted = id == ID.pre || id == ID.listing
    if preformatted { dropNextNewline = true }
    if !compact, !preformatted, try printsLeaf(name) { return }
    var tag = OpenTag(name: name, serial: serial)
    if compact {
      tag.layout = .compactNested
      tag.preserves = true
      if preformatted { output.append(0x0A) }
    } else if preformatted {
      tag.layout = .compactEmpty
      tag.preserves = true
    }
    open.append(tag)
    if id != 0 { counts[id] += 1 }
  }

  /// The element whose start tag was just written, when a text and its own end tag follow
  /// (`<td>1</td>`, `<a href="u">Order</a>`), printed in one step with what the rules do for
  /// those two tokens there: the text joins the element's line, and the end tag closes it as
  /// ``closesCurrentElement()`` does, without the element ever entering the stack. Only where
  /// that is all the rules do: a text that is not whitespace alone and holds no markup, an end
  /// tag of up to seven bytes written `</name>`, no newline to drop, and not `head`, `body`,
  /// `html` or a table's structure (which move or drop text). Whether it was one.
  @inline(__always)
  private mutating func printsLeaf(_ name: TagName) throws(Unsupported) -> Bool {
    let start = index
    guard start < bytes.count, bytes[start] != UInt8(ascii: "<"), name.count <= 7,
      !dropNextNewline
    else { return false }
    let id = name.id
    let traits = name.traits
    guard id != ID.head, id != ID.body, id != ID.html, !traits.contains(.tableContext) else {
      return false
    }
    let end = ByteScan.first(UInt8(ascii: "<"), in: bytes, from: start, to: bytes.count)
    guard end + 10 <= bytes.count, bytes[end + 1] == UInt8(ascii: "/") else { return false }
    guard bytes.isEndTagName(name, at: end + 2) else { return false }
    var whitespace = true
    for position in start..<end where !isSpace(bytes[position]) {
      whitespace = false
      break
    }
    if whitespace { return false }
    // The element's own entry (a formatting element's, a cell's marker) is the list's last and
    // open: the text reopens nothing then. Otherwise the list is as the text would find it.
    let ownEntry = traits.contains(.formatting) || traits.contains(.marker)
    if !ownEntry { try reconstructFormatting() }
    bodyStarted = true
    startText()
    writeNormalizedText(from: start, to: end)
    writeEndTag(name)
    output.append(0x0A)
    if ownEntry { formatting.removeLast() }
    index = end + 3 + name.count
    return true
  }

  /// An SVG or MathML element: its name and attributes as written, `<path/>` when empty.
  private mutating func openForeignElement(
    _ name: TagName,
    selfClosing: Bool
  ) throws(Unsupported) {
    if beginChild() { throw Unsupported() }  // SVG in `pre` keeps no whitespace: rare, left out.
    try writeStartTag(name, foreign: true)
    if selfClosing {
      output.insert(UInt8(ascii: "/"), at: output.count - 1)  // `<path/>`
      output.append(0x0A)
      return
    }
    serial += 1
    var tag = OpenTag(name: name, serial: serial)
    tag.foreign = true
    open.append(tag)
  }

  private mutating func closeElement(_ name: TagName) throws(Unsupported) {
    if inForeignContent {
      // An end tag that does not close foreign content follows HTML's rules around it.
      if name.id == ID.paragraph || name.id == ID.br { throw Unsupported() }
      for position in open.indices.reversed() {
        guard open[position].foreign else { break }
        if open[position].name.count == name.count,
          bytes.equalIgnoringCase(open[position].name.start, name.start, count: name.count)
        {
          pop(to: position)
          return
        }
      }
      throw Unsupported()
    }
    let traits = name.traits
    let id = name.id
    switch traits.contains(.endTagRule) ? id : 0 {
    case ID.paragraph:
      if !closeInScope(ID.paragraph, boundaries: [.scope, .button]),
        bodyStarted || counts[ID.body] > 0 || counts[ID.template] > 0
      {
        let compact = beginChild()
        output.append("<p></p>")
        if !compact { output.append(0x0A) }
        bodyStarted = true
        sawElement = true
      }
    case ID.br:
      try openElement(name, withAttributes: false)
    case ID.body, ID.html:
      break
    case ID.head:
      if currentID == ID.head { popLast() }
    case ID.li:
      closeInScope(ID.li, boundaries: [.scope, .list])
    case _ where traits.contains(.heading):
      if let position = open.lastIndex(where: { $0.name.traits.contains(.heading) }),
        !open[(position + 1)...].contains(where: { $0.name.traits.contains(.scope) })
      {
        pop(to: position)
      }
    case ID.table, ID.tbody, ID.thead, ID.tfoot, ID.tr, ID.td, ID.th, ID.caption,
      ID.colgroup:
      closeInScope(id, boundaries: .tableScope)
    case ID.dialog,
      _ where traits.contains(.special):
      closeInScope(id, boundaries: .scope)
    case _ where traits.contains(.formatting):
      try adoptionAgency(name)
    default:
      closeOther(name)
    }
  }

  /// Closes the nearest open element with the listed name `id` unless a boundary comes first;
  /// whether it did.
  @discardableResult
  private mutating func closeInScope(_ id: Int, boundaries: HTMLElementTraits) -> Bool {
    guard counts[id] > 0 else { return false }
    for position in open.indices.reversed() {
      if open[position].name.id == id {
        pop(to: position)
        return true
      }
      if !open[position].name.traits.isDisjoint(with: boundaries) { return false }
    }
    return false
  }

  private mutating func closeListItem(_ matches: (Int) -> Bool) {
    for position in open.indices.reversed() {
      if matches(open[position].name.id) {
        pop(to: position)
        return
      }
      let traits = open[position].name.traits
      if traits.contains(.special), !traits.contains(.listItemTransparent) { return }
    }
  }

  private mutating func popToTable(keeping: HTMLElementTraits) {
    // A cell's usual place, in a row (or a row's, in a section): nothing to close, no table to
    // look for.
    guard counts[ID.table] > 0, open[open.count - 1].name.traits.isDisjoint(with: keeping),
      let table = open.lastIndex(where: { $0.name.id == ID.table })
    else { return }
    while open.count - 1 > table, open[open.count - 1].name.traits.isDisjoint(with: keeping) {
      popLast()
    }
  }

  private mutating func closeOther(_ name: TagName) {
    for position in open.indices.reversed() {
      if bytes.sameName(open[position].name, name) {
        pop(to: position)
        return
      }
      if open[position].name.traits.contains(.special) { return }
    }
  }

  // MARK: - Formatting elements

  private func isOpen(_ entry: FormattingEntry) -> Bool {
    entry.depth < open.count && open[entry.depth].serial == entry.serial
  }

  /// Clears `formatting` down to the marker of the element `serial`, which closes: the marker and
  /// the entries after it go, as the tree reader clears them. Each marker's element is open,
  /// then: markers are pushed with their element and the stack closes the elements pushed later
  /// first, so the last marker is always that of the element closing.
  private mutating func clearFormatting(downToMarkerOf serial: Int) {
    var position = formatting.count
    while position > 0 {
      position -= 1
      guard formatting[position].isMarker else { continue }
      if formatting[position].serial == serial {
        formatting.removeLast(formatting.count - position)
      }
      return
    }
  }

  /// The position in `formatting` of the last entry named `id` after the last marker.
  /// (Mutating only so that calling it does not copy the printer, as for `isDuplicate`.)
  private mutating func formattingEntry(named id: Int) -> Int? {
    for position in formatting.indices.reversed() {
      if formatting[position].isMarker { return nil }
      if formatting[position].id == id { return position }
    }
    return nil
  }

  /// The tree reader reopens closed formatting elements here: that needs the tree.
  private mutating func reconstructFormatting() throws(Unsupported) {
    if let last = formatting.last, !last.isMarker, !isOpen(last) { throw Unsupported() }
  }

  /// The adoption agency where it only closes elements: the formatting element is not open (its
  /// entry goes), a scope stands above it (the end tag is ignored), or no special element is
  /// open above it (it closes with what is above it). With one there, the tree reader moves
  /// elements, and takes over.
  private mutating func adoptionAgency(_ name: TagName) throws(Unsupported) {
    guard let position = formattingEntry(named: name.id) else {
      closeOther(name)
      return
    }
    let entry = formatting[position]
    guard isOpen(entry) else {
      formatting.remove(at: position)
      return
    }
    let above = open[(entry.depth + 1)...]
    if above.contains(where: { $0.name.traits.contains(.scope) }) { return }
    if above.contains(where: { $0.name.traits.contains(.special) }) { throw Unsupported() }
    pop(to: entry.depth)
    formatting.remove(at: position)
  }

  // MARK: - Printing

  /// Closes the open elements from `position` up.
  private mutating func pop(to position: Int) {
    while open.count > position { popLast() }
  }

  /// Closes the current element, finishing its lines as the tree printer writes them.
  private mutating func popLast() {
    let last = open.count - 1
    let name = open[last].name
    let layout = open[last].layout
    let endsInText = open[last].endsInText
    let foreign = open[last].foreign
    let serial = open[last].serial
    open.removeLast()
    if foreign {
      if layout == .empty {
        output.insert(UInt8(ascii: "/"), at: output.count - 1)  // `<g/>`
      } else {
        if endsInText, layout == .multiLine { output.append(0x0A) }
        if layout == .multiLine { appendIndent(open.count) }
        writeEndTag(name, foreign: true)
      }
      output.append(0x0A)
      return
    }
    if name.id != 0 { counts[name.id] -= 1 }
    if name.traits.contains(.marker) { clearFormatting(downToMarkerOf: serial) }
    switch layout {
    case .compactNested:
      writeEndTag(name)
      return
    case .multiLine:
      if endsInText { output.append(0x0A) }
      appendIndent(open.count)
    case .empty, .singleText, .compactEmpty, .compact:
      break
    }
    writeEndTag(name)
    output.append(0x0A)
  }

  /// Prepares the current element for a child that is not text: ends the text written last and
  /// turns a one-line element into lines; then indents. Whether the child is printed as it was
  /// (inside `pre` or `listing`), on no line of its own.
  private mutating func beginChild() -> Bool {
    guard let last = open.indices.last else {
      if documentEndsInText {
        output.append(0x0A)
        documentEndsInText = false
      }
      return false
    }
    switch open[last].layout {
    case .compactNested, .compact:
      return true
    case .compactEmpty:
      // The newline the parser drops after `<pre>`, written back once it has content.
      output.append(0x0A)
      open[last].layout = .compact
      return true
    case .empty:
      output.append(0x0A)
      open[last].layout = .multiLine
    case .singleText:
      output.insertLineBreak(at: open[last].textStart, indent: Self.indentWidth(open.count))
      output.append(0x0A)
      open[last].layout = .multiLine
      open[last].endsInText = false
    case .multiLine:
      if open[last].endsInText {
        output.append(0x0A)
        open[last].endsInText = false
      }
    }
    appendIndent(open.count)
    return false
  }

  /// Text, joined to the text written last if nothing came between them (the tree reader joins
  /// them into one node), whitespace collapsed outside `pre` and `listing`.
  private mutating func writeText(from start: Int, to end: Int) {
    // Only text ends in "<" (markup ends in ">"): joined to this text, it would begin markup
    // (unless the space a run of whitespace left pending comes between them).
    if output.last == UInt8(ascii: "<"), start < end, beginsMarkupAfterLessThan(bytes[start]) {
      let compact =
        switch open.last?.layout {
        case .compact, .compactNested, .compactEmpty: true
        default: false
        }
      if compact || !pendingSpace {
        output.removeLast()
        output.append("&lt;")
      }
    }
    if let last = open.indices.last {
      switch open[last].layout {
      case .compactEmpty:
        output.append(0x0A)
        open[last].layout = .compact
        append(from: start, to: end)
        return
      case .compact, .compactNested:
        append(from: start, to: end)
        return
      case .empty:
        open[last].layout = .singleText
        open[last].textStart = output.count
        startText()
      case .singleText:
        break
      case .multiLine:
        if !open[last].endsInText {
          appendIndent(open.count)
          startText()
        }
      }
      open[last].endsInText = true
    } else if !documentEndsInText {
      documentEndsInText = true
      startText()
    }
    writeNormalizedText(from: start, to: end)
  }

  /// The text from `start` to `end` with runs of whitespace written as one space, none at the
  /// start of the text being written (``startText()``); a run at its end waits for more text.
  @inline(__always)
  private mutating func writeNormalizedText(from start: Int, to end: Int) {
    var position = start
    while position < end {
      if isSpace(bytes[position]) {
        pendingSpace = output.count > textStart
        position += 1
        continue
      }
      if pendingSpace {
        output.append(0x20)
        pendingSpace = false
      }
      let run = position
      position = ByteScan.firstHit(
        in: bytes,
        from: position,
        to: end,
        candidates: ByteScan.spaceCandidates,
        isHit: isSpace
      )
      append(from: run, to: position)
    }
  }

  private mutating func startText() {
    textStart = output.count
    pendingSpace = false
  }

  private mutating func writeComment(from start: Int, to end: Int) {
    let compact = beginChild()
    output.append("<!--")
    append(from: start, to: end)
    output.append("-->")
    if !compact { output.append(0x0A) }
  }

  private mutating func writeStartTag(
    _ name: TagName,
    foreign: Bool = false
  ) throws(Unsupported) {
    if !foreign, sourceTag.end != 0 {
      append(from: sourceTag.start, to: sourceTag.end)
      return
    }
    output.append(UInt8(ascii: "<"))
    appendName(name, foreign: foreign)
    for position in 0..<attributeCount {
      let attribute = attributes[position]
      output.append(0x20)
      if foreign {
        append(from: attribute.nameStart, to: attribute.nameEnd)
      } else {
        appendLowercased(from: attribute.nameStart, to: attribute.nameEnd)
      }
      guard let (start, end) = attribute.value else {
        // `a =b` would read as a="b": the tree printer writes `a=""` (see CanonicalPrinter).
        if position + 1 < attributeCount,
          bytes[attributes[position + 1].nameStart] == UInt8(ascii: "=")
        {
          throw Unsupported()
        }
        continue
      }
      output.append(UInt8(ascii: "="))
      output.append(UInt8(ascii: "\""))
      if attribute.escapesQuotes {
        try appendEscapingQuotes(from: start, to: end)
      } else {
        append(from: start, to: end)
      }
      output.append(0x22)
    }
    output.append(UInt8(ascii: ">"))
  }

  /// A single-quoted or unquoted value, with `"` written `&quot;` as the tree reader writes it.
  private mutating func appendEscapingQuotes(from start: Int, to end: Int) throws(Unsupported) {
    var run = start
    var quotes = false
    var nonASCII = false
    for position in start..<end {
      let byte = bytes[position]
      if byte >= 0x80 { nonASCII = true }
      guard byte == 0x22 else { continue }
      quotes = true
      append(from: run, to: position)
      output.append("&quot;")
      run = position + 1
    }
    // The tree reader replaces the character `"`, which a combining mark would change.
    if quotes, nonASCII { throw Unsupported() }
    append(from: run, to: end)
  }

  @inline(__always)
  private mutating func writeEndTag(_ name: TagName, foreign: Bool = false) {
    output.append(UInt8(ascii: "<"))
    output.append(UInt8(ascii: "/"))
    appendName(name, foreign: foreign)
    output.append(UInt8(ascii: ">"))
  }

  /// The name lowercased, or as written for SVG and MathML.
  @inline(__always)
  private mutating func appendName(_ name: TagName, foreign: Bool) {
    if name.count <= 7, !foreign {
      output.appendWord(name.lowered, count: name.count)
    } else if name.capitals, !foreign {
      appendLowercased(from: name.start, to: name.start + name.count)
    } else {
      append(from: name.start, to: name.start + name.count)
    }
  }

  /// The ASCII bytes from `start` to `end` (a name: the printer refuses non-ASCII ones), with
  /// capitals lowercased.
  private mutating func appendLowercased(from start: Int, to end: Int) {
    guard start < end else { return }
    output.appendLowercased(bytes, from: start, to: end)
  }

  @inline(__always)
  private mutating func append(from start: Int, to end: Int) {
    guard start < end else { return }
    output.append(bytes, from: start, to: end)
  }

  @inline(__always)
  private mutating func appendIndent(_ depth: Int) {
    output.appendSpaces(Self.indentWidth(depth))
  }

  private static func indentWidth(_ depth: Int) -> Int {
    2 * min(depth, CanonicalPrinter.maximumIndentedDepth)
  }

}

/// Reading the page's bytes: methods of the input rather than of the printer, whose calls would
/// copy the printer's whole state (and retain its arrays) to read a few bytes.
private extension [UInt8] {
  func markupKind(at index: Int) -> DirectHTMLPrinter.MarkupKind? {
    guard index + 1 < self.count else { return nil }
    let next = self[index + 1]
    if isASCIILetter(next) { return .startTag }
    switch next {
    case UInt8(ascii: "!"): return hasPrefix("<!--", at: index) ? .comment : .declaration
    case UInt8(ascii: "?"): return .processingInstruction
    case UInt8(ascii: "/"): return index + 2 < self.count ? .endTag : nil
    default: return nil
    }
  }

  /// Whether `name` (of at most seven bytes), in any case, and `>` are at `offset`, after an
  /// end tag's `</`; eight bytes must follow `offset`.
  @inline(__always)
  func isEndTagName(_ name: TagName, at offset: Int) -> Bool {
    let word = ByteScan.word(self, at: offset)
    let written = word & (UInt64(1) << UInt64(8 * name.count) &- 1)
    return written | ByteScan.capitals(written) &>> 2 == name.lowered
      && UInt8(truncatingIfNeeded: word &>> UInt64(8 * name.count)) == UInt8(ascii: ">")
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

  /// The offset past the newline the parser drops at `start` (a line feed or a character
  /// reference to one), as the tree reader's `droppingLeadingNewline` finds it.
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
      if lowercased(self[position]) != byte { return false }
      position += 1
    }
    return true
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

  func equalIgnoringCase(_ first: Int, _ second: Int, count: Int) -> Bool {
    for position in 0..<count
    where lowercased(self[first + position]) != lowercased(self[second + position]) {
      return false
    }
    return true
  }

  /// `svg` or `math`, which the standard does not list among HTML names.
  func isForeignRoot(_ name: TagName) -> Bool {
    guard name.id == 0 else { return false }
    return (name.count == 3 && hasPrefixIgnoringCase("svg", at: name.start))
      || (name.count == 4 && hasPrefixIgnoringCase("math", at: name.start))
  }

  func sameName(_ first: TagName, _ second: TagName) -> Bool {
    if first.id != 0 || second.id != 0 { return first.id == second.id }
    return first.count == second.count
      && equalIgnoringCase(first.start, second.start, count: first.count)
  }
}

/// The fixed IDs of the names the rules ask about.
private typealias ID = RuleNameID

/// A tag's name: where it is in the input, whether it has capitals to lowercase, and its traits.
private struct TagName {
  var start: Int
  var count: Int
  var capitals: Bool
  var traits: HTMLElementTraits
  /// The first eight bytes lowercased, the first in the lowest byte: the whole name when it has
  /// at most seven, which is then written as one word.
  var lowered: UInt64
  var id: Int { traits.nameID }
}

private struct TagAttribute {
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

/// How much of an open element is printed, which decides how the rest is.
private enum Layout {
  /// The start tag, nothing after it: `<td></td>` if it closes now.
  case empty
  /// The start tag and one text on the same line: `<td>1</td>` if it closes now.
  case singleText
  /// The start tag on its own line, then children on lines of their own.
  case multiLine
  /// `pre` or `listing` without content yet: `<pre></pre>` if it closes now.
  case compactEmpty
  /// `pre` or `listing` with content, printed as it was.
  case compact
  /// An element inside `pre` or `listing`, printed as it was.
  case compactNested
}

private struct OpenTag {
  var name: TagName
  var serial: Int
  var layout = Layout.empty
  /// Where the only text starts in the output (``Layout/singleText``).
  var textStart = 0
  /// The last child is text whose line is not ended yet.
  var endsInText = false
  /// Whitespace-only text is kept (`pre`, `listing` and what is inside them).
  var preserves = false
  /// An SVG or MathML element.
  var foreign = false

  init(name: TagName, serial: Int) {
    self.name = name
    self.serial = serial
  }
}

/// An entry of the list of active formatting elements: the element by its serial number and
/// place on the stack (the stack only grows and shrinks at its end here, so an element is open
/// while that place holds it).
private struct FormattingEntry {
  var serial: Int
  var depth: Int
  var id: Int
  var isMarker: Bool
}

private func lowercased(_ byte: UInt8) -> UInt8 {
  byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
}

/// The canonical text as it is written: an array of bytes, reserved for the whole text up
/// front.
private struct OutputBytes {
  private var bytes: [UInt8] = []

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  var count: Int { bytes.count }

  var last: UInt8? { bytes.last }

  mutating func removeLast() {
    bytes.removeLast()
  }

  /// The text as a `String`, copied without validating it again: the printer writes only whole
  /// characters of its input, which is valid UTF-8 (slices of it end at ASCII bytes, names with
  /// other bytes are refused, and the rest is ASCII). Validating 1.5 MB that holds one non-ASCII
  /// byte would take a fifth of the print (see the Performance article); the tests' debug builds
  /// still check every text. The core owns the unchecked copy, `String(copyingValidUTF8:)`.
  func makeString() -> String {
    String(copyingValidUTF8: bytes)
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// The bytes of `source` from `start` to `end`: a short run (most are a name or a short
  /// value) byte by byte, which costs less than making a slice (a retain and a release) and
  /// calling `memmove`.
  @inline(__always)
  mutating func append(_ source: [UInt8], from start: Int, to end: Int) {
    if end &- start <= 16 {
      for position in start..<end { bytes.append(source[position]) }
    } else {
      bytes.append(contentsOf: source[start..<end])
    }
  }

  /// The first `count` bytes of `word` (at most 8), the first in the lowest byte.
  @inline(__always)
  mutating func appendWord(_ word: UInt64, count written: Int) {
    for position in 0..<written {
      bytes.append(UInt8(truncatingIfNeeded: word &>> UInt64(8 &* position)))
    }
  }

  /// The bytes of `source` from `start` to `end` with ASCII capitals lowercased.
  mutating func appendLowercased(_ source: [UInt8], from start: Int, to end: Int) {
    for position in start..<end {
      let byte = source[position]
      bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
    }
  }

  @inline(__always)
  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// `width` spaces.
  @inline(__always)
  mutating func appendSpaces(_ width: Int) {
    bytes.append(contentsOf: repeatElement(0x20, count: width))
  }

  mutating func insert(_ byte: UInt8, at position: Int) {
    bytes.insert(byte, at: position)
  }

  /// A newline and `indent` spaces at `position`, moving what follows.
  mutating func insertLineBreak(at position: Int, indent: Int) {
    var lineBreak: [UInt8] = [0x0A]
    lineBreak.append(contentsOf: repeatElement(0x20, count: indent))
    bytes.insert(contentsOf: lineBreak, at: position)
  }
}

/// `isWhitespaceByte` as one comparison and one bit test: space, tab, line feed, form feed and
/// carriage return.
@inline(__always)
private func isSpace(_ byte: UInt8) -> Bool {
  byte <= 0x20 && (UInt64(1) << UInt64(byte)) & 0x1_0000_3600 != 0
}
