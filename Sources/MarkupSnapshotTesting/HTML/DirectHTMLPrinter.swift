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
/// The tree-construction rules are the tree reader's own, ``HTMLTreeRules``, written once; this
/// printer supplies their view of its stack and throws where they need the tree. The tokens come
/// from the same scanners (`comment(at:)`, `rawTextEnd(from:nameAt:count:)`…); what is its own is
/// how it prints, and shortcuts that apply the rules for the commonest tokens at once (the
/// current element's end tag, a leaf `<td>1</td>`). `DirectHTMLPrinterTests` runs both on every
/// page of the corpora and on random token soups and requires equal text.
///
/// Iterative, as the tree reader: depth costs memory on the heap, never the call stack.
/// - Complexity: O(*n* × *d*) for *n* bytes and an open-element depth of *d* (usually small).
struct DirectHTMLPrinter: HTMLTreeRules {
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
  typealias Failure = Unsupported

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
  /// The attributes of the tag read last.
  private var attributes = TagAttributes()
  /// Where the start tag read last begins and ends in the input, when all of it is written there
  /// as the printer writes it, so that it is copied as it is; `end` is 0 otherwise.
  private var sourceTag = (start: 0, end: 0)
  var rules = HTMLRuleState()
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
        case .emptyEndTag: index += 3
        case .bogusEndTag: bogusComment(from: index + 2)
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

  // MARK: - Tokens

  private mutating func text() throws(Unsupported) {
    let start = index
    index = bytes.textEnd(from: start)
    try insertText(from: start, to: index)
  }

  private mutating func comment() {
    let (start, end, next) = bytes.comment(at: index)
    index = next
    writeComment(from: start, to: end)
  }

  private mutating func declaration() throws(Unsupported) {
    if let end = bytes.doctypeEnd(at: index) {
      let start = index
      index = end
      if !rules.sawElement {
        // The tree reader compares `String`s, by characters: a non-ASCII byte right after the
        // prefix may join its last letter.
        if end - start > 14, bytes[start + 14] >= 0x80 { throw Unsupported() }
        rules.quirks =
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
    let comment = bytes.bogusComment(from: start)
    index = comment.next
    writeComment(from: start, to: comment.text)
  }

  private mutating func endTag() throws(Unsupported) {
    index += 2  // `</` and a letter.
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
    sourceTag = (start, attributes.asPrinted && !name.capitals ? index : 0)
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
  private mutating func readAttributes() throws(Unsupported) -> Bool? {
    let selfClosing = bytes.readAttributes(at: &index, into: &attributes)
    // Attribute names beyond ASCII go to the tree reader: the word that finds capitals is exact
    // only before such a byte.
    if attributes.nonASCIIName { throw Unsupported() }
    return selfClosing
  }

  /// The content of a raw text element up to its end tag: the range of its text and where
  /// reading goes on.
  private mutating func rawText(of name: TagName) throws(Unsupported) -> (Int, Int) {
    let start = index
    var end = bytes.count
    var after = bytes.count
    if let found = bytes.rawTextEnd(from: start, nameAt: name.start, count: name.count) {
      end = found.end
      index = found.nameEnd
      after = try readAttributes() == nil ? bytes.count : index
    }
    index = after
    return (start, end)
  }

  // MARK: - Tree rules (``HTMLTreeRules``; what each needs of the tree is below)

  private mutating func insertText(from tokenStart: Int, to end: Int) throws(Unsupported) {
    var start = tokenStart
    if rules.dropNextNewline {
      rules.dropNextNewline = false
      start = bytes.afterLeadingNewline(from: start, to: end)
      if start == end { return }
    }
    var whitespace = true
    for position in start..<end where !isSpace(bytes[position]) {
      whitespace = false
      break
    }
    guard try textRules(whitespace: whitespace) else { return }
    writeText(from: start, to: end)
  }

  private mutating func openElement(
    _ name: TagName,
    withAttributes: Bool,
    selfClosing: Bool = false
  ) throws(Unsupported) {
    if !withAttributes {
      attributes.count = 0
      sourceTag.end = 0
    }
    let traits = name.traits
    let id = name.id
    // The tree printer ends the page at any element named `plaintext`, even in SVG.
    if traits.contains(.plaintext) { throw Unsupported() }
    // `font` leaves SVG or MathML only with some attributes: the tree reader decides.
    let foreign = try foreignStartTagRules(
      isForeignRoot: bytes.isForeignRoot(name),
      breaksOut: traits.contains(.foreignBreaker)
        || (name.count == 4 && bytes.hasPrefixIgnoringCase("font", at: name.start))
    )
    if foreign {
      try openForeignElement(name, selfClosing: selfClosing)
      return
    }
    // HTML inside `foreignObject` or `mi` needs the tree reader.
    if inForeignContent || id == ID.image { throw Unsupported() }
    guard try startTagRules(name, traits: traits) else { return }
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
    if preformatted { rules.dropNextNewline = true }
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
      !rules.dropNextNewline
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
    rules.bodyStarted = true
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
    if try foreignEndTagRules(name, id: name.id) { return }
    // An end tag that does not close foreign content follows HTML's rules around it.
    if inForeignContent { throw Unsupported() }
    try endTagRules(name, traits: name.traits)
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
  func activeFormattingEntry(named name: TagName, id: Int) -> Int? {
    var position = formatting.count
    while position > 0 {
      position -= 1
      if formatting[position].isMarker { return nil }
      if formatting[position].id == id { return position }
    }
    return nil
  }

  func openPosition(ofFormattingEntry entry: Int) -> Int? {
    isOpen(formatting[entry]) ? formatting[entry].depth : nil
  }

  mutating func removeFormattingEntry(at entry: Int) {
    formatting.remove(at: entry)
  }

  var formattingCount: Int { formatting.count }
  func formattingIsMarker(at entry: Int) -> Bool { formatting[entry].isMarker }

  func formattingEntry(at entry: Int, isNamed name: TagName, id: Int) -> Bool {
    !formatting[entry].isMarker && formatting[entry].id == id
  }

  /// The printer keeps no attributes: a fourth entry of a name after the last marker goes to the
  /// tree reader, which compares them.
  func formattingEntryHasTagAttributes(at entry: Int) throws(Unsupported) -> Bool {
    throw Unsupported()
  }

  /// The tree reader reopens closed formatting elements here: that needs the tree.
  mutating func reconstructFormatting() throws(Unsupported) {
    if let last = formatting.last, !last.isMarker, !isOpen(last) { throw Unsupported() }
  }

  /// With a special element inside the formatting element, the tree reader moves elements.
  func adoptFurthestBlock(entry: Int, at position: Int, furthestBlock: Int) throws(Unsupported) {
    throw Unsupported()
  }

  /// An entry is the element's serial; the printer makes no copies (the adoption agency's moves
  /// go to the tree reader).
  func formattingMark(at entry: Int) -> Int { formatting[entry].serial }

  /// An `a` still open after the adoption agency leaves the stack in the tree reader.
  func dropStaleFormattingEntry(_ stale: Int) throws(Unsupported) {
    if formatting.contains(where: { !$0.isMarker && $0.serial == stale }) { throw Unsupported() }
  }

  // MARK: - The rules' view of the page

  var openCount: Int { open.count }
  func openTraits(at position: Int) -> HTMLElementTraits { open[position].name.traits }
  func openIsForeign(at position: Int) -> Bool { open[position].foreign }
  func mayHoldOpen(_ id: Int) -> Bool { counts[id] > 0 }
  var currentPreservesContent: Bool { !open.isEmpty && open[open.count - 1].preserves }

  func openElement(at position: Int, isNamed name: TagName) -> Bool {
    bytes.sameName(open[position].name, name)
  }

  mutating func closeOpen(from position: Int) { pop(to: position) }

  /// Leaving SVG or MathML moves the tags that follow: the tree reader does it.
  func leaveForeignContent() throws(Unsupported) { throw Unsupported() }

  /// The tree reader adds the attributes of a second `html` or `body` tag to the first.
  func mergeAttributes(intoOpenAt position: Int) throws(Unsupported) {
    if attributes.count > 0 { throw Unsupported() }
  }

  mutating func insertEmptyParagraph() {
    let compact = beginChild()
    output.append("<p></p>")
    if !compact { output.append(0x0A) }
  }

  mutating func insertLineBreak(_ name: TagName) throws(Unsupported) {
    try openElement(name, withAttributes: false)
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
    for position in 0..<attributes.count {
      let attribute = attributes[position]
      output.append(0x20)
      if foreign {
        append(from: attribute.nameStart, to: attribute.nameEnd)
      } else {
        appendLowercased(from: attribute.nameStart, to: attribute.nameEnd)
      }
      guard let (start, end) = attribute.value else {
        // `a =b` would read as a="b": the tree printer writes `a=""` (see CanonicalPrinter).
        if position + 1 < attributes.count,
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
    // A quote in a value beyond ASCII is left to the tree reader (both escape the byte `"`).
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
  /// Whether `name` (of at most seven bytes), in any case, and `>` are at `offset`, after an
  /// end tag's `</`; eight bytes must follow `offset`.
  @inline(__always)
  func isEndTagName(_ name: TagName, at offset: Int) -> Bool {
    let word = ByteScan.word(self, at: offset)
    let written = word & (UInt64(1) << UInt64(8 * name.count) &- 1)
    return written | ByteScan.capitals(written) &>> 2 == name.lowered
      && UInt8(truncatingIfNeeded: word &>> UInt64(8 * name.count)) == UInt8(ascii: ">")
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
struct TagName {
  var start: Int
  var count: Int
  var capitals: Bool
  var traits: HTMLElementTraits
  /// The first eight bytes lowercased, the first in the lowest byte: the whole name when it has
  /// at most seven, which is then written as one word.
  var lowered: UInt64
  var id: Int { traits.nameID }
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
