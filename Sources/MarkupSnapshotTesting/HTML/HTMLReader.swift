/// Reads HTML into a ``MarkupDocument`` the way a browser's parser builds its tree, as far as the
/// canonical form needs: the tokenizer of the HTML standard (raw text in `script`, `style`,
/// `textarea`, `title`…, comments and bogus comments, unquoted and valueless attributes,
/// duplicate attributes dropped, SVG and MathML with self-closing tags) and the tree builder's
/// implied end tags (`p`, `li`, `dt`, `dd`, `option`, table rows and cells, headings, `a`,
/// `button`), void elements, the leading newline of `pre` and `textarea`, and stray end tags
/// (`</p>` opens an empty `p` once the body began; others are dropped).
///
/// Misnested formatting elements are repaired as the standard's adoption agency does, and
/// formatting elements cut short by a block are reopened in the next one (`<p><b>x<p>y`).
///
/// Not handled: foster parenting (the browser moves the same content again when it parses the
/// canonical text), `frameset`, the script-data escape states (`<!--` inside a `script`), and
/// the parsing of `select` content. The browser also re-applies html/head/body insertion to the
/// canonical text, so those give the same tree without being modelled here.
///
/// The tree-construction rules are ``HTMLTreeRules``, which ``DirectHTMLPrinter`` follows too;
/// this reader does what they ask of the tree (reopening formatting elements, the adoption
/// agency's moves, leaving SVG and MathML).
///
/// Iterative; never fails but on nesting deeper than ``MarkupDocument/maximumDepth``, where it
/// stops reading: every other input gives a document, as it does in a browser.
/// - Complexity: O(*n* × *d*) for *n* bytes and an open-element depth of *d* (usually small).
struct HTMLReader: HTMLTreeRules {
  typealias Failure = Never

  private let bytes: [UInt8]
  private var index = 0
  /// Where the token read last begins.
  private var tokenStart = 0
  private var document = MarkupDocument(nodes: [])
  private var open = OpenElements()
  var rules = HTMLRuleState()
  /// Where the name of the start tag read last begins.
  private var tagNameStart = 0
  /// The attributes of the start tag read last, for ``mergeAttributes(intoOpenAt:)``.
  private var tagAttributes: [MarkupAttribute] = []
  /// The attributes of the tag read last, as the scanner finds them.
  private var scannedAttributes = TagAttributes()
  /// The list of active formatting elements: `b`, `i`, `a`… that a later block reopens, and the
  /// cells, captions and objects that end their reach (as markers).
  private var formatting: [FormattingEntry] = []
  /// How many markers `formatting` holds, so that a page without any never searches for one.
  private var markers = 0

  private init(bytes: [UInt8]) { self.bytes = bytes }

  static func read(_ bytes: [UInt8]) throws(MarkupSyntaxError) -> MarkupDocument {
    var reader = HTMLReader(bytes: bytes)
    try reader.run()
    return reader.document
  }

  private mutating func run() throws(MarkupSyntaxError) {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      document.byteOrderMark = true
      index = 3
    }
    while index < bytes.count {
      // One token opens at most the elements it reopens; checked after each, the tree never
      // grows far past the limit.
      if open.count > MarkupDocument.maximumDepth { throw .tooDeep(at: tokenStart) }
      tokenStart = index
      if bytes[index] == UInt8(ascii: "<"), let markup = bytes.markupKind(at: index) {
        switch markup {
        case .comment: comment()
        case .declaration: declaration()
        case .processingInstruction: bogusComment(from: index + 1)
        case .endTag: endTag()
        case .emptyEndTag: index += 3
        case .bogusEndTag: bogusComment(from: index + 2)
        case .startTag: startTag()
        }
      } else {
        text()
      }
    }
    if open.count > MarkupDocument.maximumDepth { throw .tooDeep(at: tokenStart) }
  }

  // MARK: - Tokens

  private mutating func text() {
    let start = index
    index = bytes.textEnd(from: start)
    insertText(from: start, to: index)
  }

  private mutating func comment() {
    let (start, end, next) = bytes.comment(at: index)
    index = next
    append(.comment(String(decoding: bytes[start..<end], as: UTF8.self)))
  }

  /// `<!DOCTYPE …>`, `<![CDATA[…]]>` in SVG or MathML, or a bogus comment.
  private mutating func declaration() {
    if let end = bytes.doctypeEnd(at: index) {
      let start = index
      index = end
      var text = String(decoding: bytes[start..<end], as: UTF8.self)
      // One the page ends in is closed: printed unclosed, it would take in what follows it.
      if bytes[end - 1] != UInt8(ascii: ">") { text += ">" }
      if !rules.sawElement {
        rules.quirks = !text.lowercased().hasPrefix("<!doctype html")
        append(.verbatim(text))
      }
      return
    }
    if inForeignContent, bytes.hasPrefix("<![CDATA[", at: index) {
      let start = index + 9
      let end = bytes.offset(past: "]]>", from: start) ?? bytes.count
      index = end
      let contentEnd = bytes.hasPrefix("]]>", at: end - 3) ? end - 3 : end
      append(.cdata(String(decoding: bytes[start..<max(start, contentEnd)], as: UTF8.self)))
      return
    }
    bogusComment(from: index + 2)
  }

  /// Everything from `start` to the next `>` as a comment, as the tokenizer treats `<?…>`, `<!…>`
  /// and `</ …>`.
  private mutating func bogusComment(from start: Int) {
    let comment = bytes.bogusComment(from: start)
    index = comment.next
    append(.comment(String(decoding: bytes[start..<comment.text], as: UTF8.self)))
  }

  private mutating func endTag() {
    index += 2  // `</` and a letter.
    let name = tagName()
    guard bytes.readAttributes(at: &index, into: &scannedAttributes) != nil else {
      index = bytes.count
      return
    }
    closeElement(named: name)
  }

  private mutating func startTag() {
    index += 1
    tagNameStart = index
    let written = tagName(lowercased: false)
    guard let (attributes, selfClosing) = attributes() else {
      index = bytes.count
      return
    }
    openElement(written: written, attributes: attributes, selfClosing: selfClosing)
  }

  private mutating func tagName(lowercased: Bool = true) -> String {
    let start = index
    while index < bytes.count, !isWhitespaceByte(bytes[index]),
      bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">")
    {
      index += 1
    }
    let name = String(decoding: bytes[start..<index], as: UTF8.self)
    return lowercased ? asciiLowercased(name) : name
  }

  /// A tag's attributes through its `>`, and whether it ends in `/>`; `nil` if the input ends
  /// inside the tag (which a browser drops).
  private mutating func attributes() -> ([MarkupAttribute], Bool)? {
    guard let selfClosing = bytes.readAttributes(at: &index, into: &scannedAttributes) else {
      return nil
    }
    var attributes: [MarkupAttribute] = []
    attributes.reserveCapacity(scannedAttributes.count)
    for position in 0..<scannedAttributes.count {
      let scanned = scannedAttributes[position]
      var attribute = MarkupAttribute(
        name: String(decoding: bytes[scanned.nameStart..<scanned.nameEnd], as: UTF8.self),
        value: nil
      )
      if let (start, end) = scanned.value {
        var value = Array(bytes[start..<end])
        if scanned.escapesQuotes, value.contains(0x22) {
          value = value.flatMap { $0 == 0x22 ? Array("&quot;".utf8) : [$0] }
        }
        attribute.value = String(decoding: value, as: UTF8.self)
      }
      attributes.append(attribute)
    }
    return (attributes, selfClosing)
  }

  // MARK: - Tree

  private var current: MarkupElement? { open.last?.element }

  private mutating func append(_ node: MarkupNode) {
    if let current {
      if case .element(let element) = node { element.parent = current }
      current.children.append(node)
    } else {
      document.nodes.append(node)
    }
  }

  private mutating func insertText(from tokenStart: Int, to end: Int) {
    var start = tokenStart
    if rules.dropNextNewline {
      rules.dropNextNewline = false
      start = bytes.afterLeadingNewline(from: start, to: end)
      if start == end { return }
    }
    let whitespace = bytes[start..<end].allSatisfy(isWhitespaceByte)
    guard textRules(whitespace: whitespace) else { return }
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    // Text on both sides of a dropped tag is one text node, as in the browser.
    if let current, case .text(let previous) = current.children.last {
      current.children[current.children.count - 1] = .text(joined(previous, text))
    } else if current == nil, case .text(let previous) = document.nodes.last {
      document.nodes[document.nodes.count - 1] = .text(joined(previous, text))
    } else {
      append(.text(text))
    }
  }

  private mutating func openElement(
    written: String,
    attributes: [MarkupAttribute],
    selfClosing: Bool
  ) {
    var name = asciiLowercased(written)
    let foreign = foreignStartTagRules(
      isForeignRoot: name == "svg" || name == "math",
      breaksOut: inForeignContent && breaksOutOfForeignContent(name, attributes)
    )
    if foreign {
      let element = MarkupElement(name: written, attributes: attributes)
      element.closesItself = true
      append(.element(element))
      if !selfClosing { open.append(OpenElement(element, foreign: true)) }
      return
    }
    var attributes = attributes
    // Only a name with capitals is rewritten, so that most tags do not copy their attributes.
    for position in attributes.indices where hasASCIIUppercase(attributes[position].name) {
      attributes[position].name = asciiLowercased(attributes[position].name)
    }
    if name == "image" { name = "img" }
    let traits = HTMLElementTraits(name: name)
    tagAttributes = attributes
    guard startTagRules(name, traits: traits) else { return }
    let element = MarkupElement(name: name, attributes: attributes)
    append(.element(element))
    if traits.contains(.formatting) {
      clearClosedMarkers()
      formatting.append(FormattingEntry(element: element, isMarker: false))
    } else if traits.contains(.marker) {
      // The cell before this one has closed: its marker and what follows go first, so the list
      // stays as short as the open cells.
      clearClosedMarkers()
      formatting.append(FormattingEntry(element: element, isMarker: true))
      markers += 1
    }
    if traits.contains(.void) {
      element.isVoid = true
      return
    }
    if !traits.isDisjoint(with: [.rawText, .plaintext]) {
      element.holdsRawText = true
      element.preservesContent = name == "textarea"
      rawText(of: element, endingEverything: traits.contains(.plaintext))
      return
    }
    if name == "pre" || name == "listing" {
      element.preservesContent = true
      rules.dropNextNewline = true
    }
    if current?.preservesContent == true { element.preservesContent = true }
    open.append(OpenElement(element, foreign: false, traits: traits))
  }

  /// The content of a raw text element, up to its end tag, as its one text child.
  private mutating func rawText(of element: MarkupElement, endingEverything: Bool) {
    let start = index
    var end = bytes.count
    var after = bytes.count
    if !endingEverything,
      let found = bytes.rawTextEnd(
        from: start,
        nameAt: tagNameStart,
        count: element.name.utf8.count
      )
    {
      end = found.end
      // The end tag's attributes are read as a start tag's, so a quoted `>` does not end it;
      // a tag that runs to the end of the input goes, as in the browser.
      index = found.nameEnd
      after =
        bytes.readAttributes(at: &index, into: &scannedAttributes) == nil ? bytes.count : index
    }
    let contentStart =
      element.name == "textarea" ? bytes.afterLeadingNewline(from: start, to: end) : start
    if contentStart < end {
      element.children.append(.text(String(decoding: bytes[contentStart..<end], as: UTF8.self)))
    }
    index = after
  }

  private mutating func closeElement(named name: String) {
    let traits = HTMLElementTraits(name: name)
    if foreignEndTagRules(name, id: traits.nameID) { return }
    endTagRules(name, traits: traits)
  }

  // MARK: - Formatting elements (the standard's "adoption agency")

  private struct FormattingEntry {
    var element: MarkupElement
    var isMarker: Bool
  }

  /// Drops the entries after a marker whose cell, caption or object has closed.
  private mutating func clearClosedMarkers() {
    while let marker = formatting.lastIndex(where: \.isMarker), !formatting[marker].element.isOpen
    {
      formatting.removeSubrange(marker...)
    }
  }

  /// Reopens the formatting elements that a closed block cut short, as copies, at the current
  /// node: `<p><b>x<p>y` puts `y` in a new `b`.
  mutating func reconstructFormatting() {
    clearClosedMarkers()
    guard let last = formatting.last, !last.isMarker, !last.element.isOpen else { return }
    var first = formatting.count - 1
    while first > 0, !formatting[first - 1].isMarker, !formatting[first - 1].element.isOpen {
      first -= 1
    }
    for position in first..<formatting.count {
      let copy = formatting[position].element.shallowCopy()
      copy.preservesContent = current?.preservesContent ?? false
      append(.element(copy))
      open.append(OpenElement(copy, foreign: false))
      formatting[position].element = copy
    }
  }

  /// The adoption agency's move: the blocks opened inside the formatting element keep a copy of
  /// it around their content, and the element ends.
  mutating func adoptFurthestBlock(entry: Int, at elementPosition: Int, furthestBlock blockPosition: Int) {
    let element = formatting[entry].element
    let furthestBlock = open[blockPosition].element
    let commonAncestor = elementPosition > 0 ? open[elementPosition - 1].element : nil
    var bookmark = entry
    var nodePosition = blockPosition
    var lastNode = furthestBlock
    var innerCount = 0
    while true {
      innerCount += 1
      nodePosition -= 1
      var node = open[nodePosition].element
      if node === element { break }
      var entry = formatting.lastIndex { $0.element === node }
      if innerCount > 3, let found = entry {
        formatting.remove(at: found)
        if found < bookmark { bookmark -= 1 }
        entry = nil
      }
      guard let entryPosition = entry else {
        open.remove(at: nodePosition)
        continue
      }
      let copy = node.shallowCopy()
      formatting[entryPosition].element = copy
      open.replace(at: nodePosition, with: copy)
      node = copy
      if lastNode === furthestBlock { bookmark = entryPosition + 1 }
      lastNode.parent?.removeChild(lastNode)
      node.appendChild(lastNode)
      lastNode = node
    }
    if let lastParent = lastNode.parent {
      lastParent.removeChild(lastNode)
    } else {
      document.nodes.removeAll {
        if case .element(let top) = $0 { top === lastNode } else { false }
      }
    }
    if let commonAncestor {
      commonAncestor.appendChild(lastNode)
    } else {
      document.nodes.append(.element(lastNode))
    }
    let replacement = element.shallowCopy()
    replacement.children = furthestBlock.children
    for case .element(let child) in replacement.children { child.parent = replacement }
    furthestBlock.children = []
    furthestBlock.appendChild(replacement)
    let oldEntry = formatting.lastIndex { $0.element === element }!
    formatting.remove(at: oldEntry)
    if oldEntry < bookmark { bookmark -= 1 }
    formatting.insert(FormattingEntry(element: replacement, isMarker: false), at: bookmark)
    let oldPosition = open.lastIndex { $0.element === element }!
    open.remove(at: oldPosition)
    let blockNow = open.lastIndex { $0.element === furthestBlock }!
    open.insert(OpenElement(replacement, foreign: false), at: blockNow + 1)
  }

  mutating func activeFormattingEntry(named name: String, id: Int) -> Int? {
    clearClosedMarkers()
    var position = formatting.count
    while position > 0 {
      position -= 1
      if formatting[position].isMarker { return nil }
      if formatting[position].element.name == name { return position }
    }
    return nil
  }

  func openPosition(ofFormattingEntry entry: Int) -> Int? {
    let element = formatting[entry].element
    guard element.isOpen else { return nil }
    return open.lastIndex { $0.element === element }
  }

  mutating func removeFormattingEntry(at entry: Int) {
    formatting.remove(at: entry)
  }

  var formattingCount: Int { formatting.count }
  func formattingIsMarker(at entry: Int) -> Bool { formatting[entry].isMarker }

  func formattingEntry(at entry: Int, isNamed name: String, id: Int) -> Bool {
    !formatting[entry].isMarker && formatting[entry].element.name == name
  }

  /// Values compare as written, character references undecoded (`class=x` and `class=&#120;`
  /// differ here, not in a browser).
  func formattingEntryHasTagAttributes(at entry: Int) -> Bool {
    let attributes = formatting[entry].element.attributes
    return attributes.count == tagAttributes.count
      && tagAttributes.allSatisfy { attribute in
        attributes.contains { $0.name == attribute.name && $0.value == attribute.value }
      }
  }

  func formattingMark(at entry: Int) -> MarkupElement { formatting[entry].element }

  mutating func dropStaleFormattingEntry(_ stale: MarkupElement) {
    guard let entry = formatting.lastIndex(where: { $0.element === stale }) else { return }
    formatting.remove(at: entry)
    if let position = open.lastIndex(where: { $0.element === stale }) {
      open.remove(at: position)
    }
  }

  // MARK: - The rules' view of the tree

  var openCount: Int { open.count }
  func openTraits(at position: Int) -> HTMLElementTraits { open[position].traits }
  func openIsForeign(at position: Int) -> Bool { open[position].foreign }
  func mayHoldOpen(_ id: Int) -> Bool { open.mayHold(id) }
  var currentPreservesContent: Bool { current?.preservesContent ?? false }

  func openElement(at position: Int, isNamed name: String) -> Bool {
    asciiLowercased(open[position].element.name) == name
  }

  mutating func closeOpen(from position: Int) { open.removeSubrange(position...) }

  mutating func leaveForeignContent() {
    while let last = open.last, last.foreign, !last.traits.contains(.integrationPoint) {
      open.removeLast()
    }
  }

  mutating func mergeAttributes(intoOpenAt position: Int) {
    merge(tagAttributes, into: open[position].element)
  }

  mutating func insertEmptyParagraph() {
    append(.element(MarkupElement(name: "p", attributes: [])))
  }

  mutating func insertLineBreak(_ name: String) {
    openElement(written: "br", attributes: [], selfClosing: false)
  }

  private func merge(_ attributes: [MarkupAttribute], into element: MarkupElement) {
    for attribute in attributes
    where !element.attributes.contains(where: {
      $0.name == attribute.name
    }) {
      element.attributes.append(attribute)
    }
  }

  private func breaksOutOfForeignContent(_ name: String, _ attributes: [MarkupAttribute]) -> Bool {
    if name == "font" {
      return attributes.contains { ["color", "face", "size"].contains(asciiLowercased($0.name)) }
    }
    return HTMLElementTraits(name: name).contains(.foreignBreaker)
  }

}

// MARK: - The stack of open elements

/// An open element, whether it is SVG or MathML content, and the traits of its name.
private struct OpenElement {
  var element: MarkupElement
  var foreign: Bool
  var traits: HTMLElementTraits

  init(_ element: MarkupElement, foreign: Bool, traits: HTMLElementTraits? = nil) {
    self.element = element
    self.foreign = foreign
    self.traits = traits ?? HTMLElementTraits(name: element.name)
  }
}

/// The stack of open elements, with a count of each name the standard lists, so that asking for
/// one that is not open costs nothing; each element knows whether it is on the stack.
private struct OpenElements: RandomAccessCollection {
  private var elements: [OpenElement] = []
  private var counts = [Int32](repeating: 0, count: HTMLElementTraits.nameCount)

  var startIndex: Int { 0 }
  var endIndex: Int { elements.count }
  subscript(position: Int) -> OpenElement { elements[position] }
  var last: OpenElement? { elements.last }

  /// Whether an element with the listed name `id` may be open: `false` only when none is.
  func mayHold(_ id: Int) -> Bool { counts[id] > 0 }

  mutating func append(_ entry: OpenElement) {
    elements.append(entry)
    opened(entry)
  }

  mutating func removeLast() {
    closed(elements.removeLast())
  }

  mutating func remove(at position: Int) {
    closed(elements.remove(at: position))
  }

  mutating func insert(_ entry: OpenElement, at position: Int) {
    elements.insert(entry, at: position)
    opened(entry)
  }

  /// Puts `element`, a copy of the one at `position`, in its place.
  mutating func replace(at position: Int, with element: MarkupElement) {
    elements[position].element.isOpen = false
    elements[position].element = element
    element.isOpen = true
  }

  mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
    while elements.count > range.lowerBound { removeLast() }
  }

  private mutating func opened(_ entry: OpenElement) {
    entry.element.isOpen = true
    counts[entry.traits.nameID] += 1
  }

  private mutating func closed(_ entry: OpenElement) {
    entry.element.isOpen = false
    counts[entry.traits.nameID] -= 1
  }
}

func isASCIILetter(_ byte: UInt8) -> Bool {
  byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
}

/// Two texts that a dropped tag stood between, as one: when the first ends in `<` and the second
/// begins with what would make that `<` begin markup (`a<` `</x>` `b` is the text "a<b", but
/// `a<b` is a tag), the `<` is written `&lt;`, which is the same text.
private func joined(_ first: String, _ second: String) -> String {
  guard first.utf8.last == UInt8(ascii: "<"), let next = second.utf8.first,
    beginsMarkupAfterLessThan(next)
  else { return first + second }
  return String(decoding: first.utf8.dropLast(), as: UTF8.self) + "&lt;" + second
}

/// Whether `<` followed by `byte` begins a tag, an end tag, a comment or a bogus comment.
func beginsMarkupAfterLessThan(_ byte: UInt8) -> Bool {
  isASCIILetter(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!")
    || byte == UInt8(ascii: "?")
}

/// The value of a decimal or (with `hex`) hexadecimal digit, or `nil`.
func digitValue(_ byte: UInt8, hex: Bool) -> Int? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: Int(byte - UInt8(ascii: "a")) + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: Int(byte - UInt8(ascii: "A")) + 10
  default: nil
  }
}

private func hasASCIIUppercase(_ text: String) -> Bool {
  text.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
}

func asciiLowercased(_ text: String) -> String {
  guard hasASCIIUppercase(text) else { return text }
  return String(
    decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 },
    as: UTF8.self
  )
}
