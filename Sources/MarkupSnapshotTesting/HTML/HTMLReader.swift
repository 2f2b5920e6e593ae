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
/// Not handled: the limit of three identical entries in the list of active formatting
/// elements, foster parenting (the browser moves the same content again when it parses the
/// canonical text), `frameset`, the script-data escape states (`<!--` inside a `script`), and
/// the parsing of `select` content. The browser also re-applies html/head/body insertion to the
/// canonical text, so those give the same tree without being modelled here.
///
/// Iterative; never fails but on nesting deeper than ``MarkupDocument/maximumDepth``, where it
/// stops reading: every other input gives a document, as it does in a browser.
/// - Complexity: O(*n* × *d*) for *n* bytes and an open-element depth of *d* (usually small).
struct HTMLReader {
  private let bytes: [UInt8]
  private var index = 0
  /// Where the token read last begins.
  private var tokenStart = 0
  private var document = MarkupDocument(nodes: [])
  private var open = OpenElements()
  private var quirks = true
  private var sawElement = false
  private var dropNextNewline = false
  /// Whether something that belongs in the body came: `html`, `head` and `body` tags after it
  /// only add attributes to the elements a browser already made (and are dropped here).
  private var bodyStarted = false
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
      if bytes[index] == UInt8(ascii: "<"), let markup = markupKind() {
        switch markup {
        case .comment: comment()
        case .declaration: declaration()
        case .processingInstruction: bogusComment(from: index + 1)
        case .endTag: endTag()
        case .startTag: startTag()
        }
      } else {
        text()
      }
    }
    if open.count > MarkupDocument.maximumDepth { throw .tooDeep(at: tokenStart) }
  }

  private enum MarkupKind { case comment, declaration, processingInstruction, endTag, startTag }

  private func markupKind() -> MarkupKind? {
    guard index + 1 < bytes.count else { return nil }
    let next = bytes[index + 1]
    if isASCIILetter(next) { return .startTag }
    switch next {
    case UInt8(ascii: "!"): return bytes.hasPrefix("<!--", at: index) ? .comment : .declaration
    case UInt8(ascii: "?"): return .processingInstruction
    case UInt8(ascii: "/"): return index + 2 < bytes.count ? .endTag : nil
    default: return nil
    }
  }

  // MARK: - Tokens

  private mutating func text() {
    let start = index
    index += 1
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "<"), markupKind() != nil { break }
      index += 1
    }
    insertText(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private mutating func comment() {
    let start = index + 4
    if bytes.hasPrefix("<!-->", at: index) {
      index += 5
      append(.comment(""))
      return
    }
    if bytes.hasPrefix("<!--->", at: index) {
      index += 6
      append(.comment(""))
      return
    }
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
    append(.comment(String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)))
  }

  /// `<!DOCTYPE …>`, `<![CDATA[…]]>` in SVG or MathML, or a bogus comment.
  private mutating func declaration() {
    let name = bytes[(index + 2)..<min(index + 9, bytes.count)].map { $0 | 0x20 }
    if name == Array("doctype".utf8) {
      let start = index
      let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? bytes.count
      index = end
      var text = String(decoding: bytes[start..<end], as: UTF8.self)
      // One the page ends in is closed: printed unclosed, it would take in what follows it.
      if bytes[end - 1] != UInt8(ascii: ">") { text += ">" }
      if !sawElement {
        quirks = !text.lowercased().hasPrefix("<!doctype html")
        append(.verbatim(text))
      }
      return
    }
    if open.last?.foreign == true, bytes.hasPrefix("<![CDATA[", at: index) {
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
    let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
    index = min(end + 1, bytes.count)
    append(.comment(String(decoding: bytes[start..<end], as: UTF8.self)))
  }

  private mutating func endTag() {
    guard isASCIILetter(bytes[index + 2]) else {
      if bytes[index + 2] == UInt8(ascii: ">") {
        index += 3
      } else {
        bogusComment(from: index + 2)
      }
      return
    }
    index += 2
    let name = tagName()
    guard attributes() != nil else {
      index = bytes.count
      return
    }
    closeElement(named: name)
  }

  private mutating func startTag() {
    index += 1
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

  /// A tag's attributes through its `>`, or `nil` if the input ends inside the tag (which a
  /// browser drops).
  private mutating func attributes() -> ([MarkupAttribute], Bool)? {
    var attributes: [MarkupAttribute] = []
    while true {
      while index < bytes.count, isWhitespaceByte(bytes[index]) { index += 1 }
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: ">") {
        index += 1
        return (attributes, false)
      }
      if bytes[index] == UInt8(ascii: "/") {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
          index += 1
          return (attributes, true)
        }
        continue
      }
      let nameStart = index
      index += 1  // A leading `=` belongs to the name.
      while index < bytes.count, !isWhitespaceByte(bytes[index]),
        bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">"),
        bytes[index] != UInt8(ascii: "=")
      {
        index += 1
      }
      let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
      while index < bytes.count, isWhitespaceByte(bytes[index]) { index += 1 }
      var value: String?
      if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
        index += 1
        while index < bytes.count, isWhitespaceByte(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        let quote = bytes[index]
        if quote == 0x22 || quote == 0x27 {
          let start = index + 1
          guard let end = bytes[start...].firstIndex(of: quote) else { return nil }
          index = end + 1
          value = String(decoding: bytes[start..<end], as: UTF8.self)
          if quote == 0x27 { value = value!.replacingAll("\"", with: "&quot;") }
        } else {
          let start = index
          while index < bytes.count, !isWhitespaceByte(bytes[index]),
            bytes[index] != UInt8(ascii: ">")
          {
            index += 1
          }
          value = String(decoding: bytes[start..<index], as: UTF8.self)
            .replacingAll("\"", with: "&quot;")
          if value!.isEmpty { value = nil }
        }
      }
      let lowercasedName = asciiLowercased(name)
      if !attributes.contains(where: { asciiLowercased($0.name) == lowercasedName }) {
        attributes.append(MarkupAttribute(name: name, value: value))
      }
    }
  }

  /// `text` without the newline that the parser drops after `<pre>`, `<listing>` and
  /// `<textarea>`: a line feed, or a character reference to one (`&#10;`, `&#x0a;`), which the
  /// tokenizer hands over as the same character.
  private func droppingLeadingNewline(_ text: String) -> String {
    // "\r\n" is one Character in Swift, so the test is on the first byte.
    if text.utf8.first == 0x0A { return String(text.dropFirst()) }
    let bytes = Array(text.utf8.prefix(16))
    guard bytes.count > 2, bytes[0] == UInt8(ascii: "&"), bytes[1] == UInt8(ascii: "#") else {
      return text
    }
    let hex = bytes[2] | 0x20 == UInt8(ascii: "x")
    var position = hex ? 3 : 2
    var value = 0
    while position < bytes.count, let digit = digitValue(bytes[position], hex: hex) {
      value = value * (hex ? 16 : 10) + digit
      position += 1
    }
    guard value == 0x0A, position > (hex ? 3 : 2) else { return text }
    if position < bytes.count, bytes[position] == UInt8(ascii: ";") { position += 1 }
    return String(decoding: text.utf8.dropFirst(position), as: UTF8.self)
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

  private mutating func insertText(_ text: String) {
    var text = text
    if dropNextNewline {
      dropNextNewline = false
      text = droppingLeadingNewline(text)
      if text.isEmpty { return }
    }
    let whitespace = text.utf8.allSatisfy(isWhitespaceByte)
    if !whitespace, open.last?.traits.nameID == headNameID, open.last?.foreign == false {
      open.removeLast()
    }
    if !whitespace || bodyStarted, !isTableContext, open.last?.foreign != true {
      reconstructFormatting()
    }
    if whitespace, !(current?.preservesContent ?? false) { return }
    if !whitespace {
      sawElement = true
      bodyStarted = true
    }
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
    sawElement = true
    if open.last?.foreign == true, breaksOutOfForeignContent(name, attributes) {
      while let last = open.last, last.foreign, !last.traits.contains(.integrationPoint) {
        open.removeLast()
      }
    }
    let foreign =
      name == "svg" || name == "math"
      || (open.last?.foreign == true && !open.last!.traits.contains(.integrationPoint))
    if foreign {
      bodyStarted = true  // `<svg>` and `<math>` belong in the body, as any other element.
      if open.last?.foreign != true, !isTableContext { reconstructFormatting() }
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
    // A switch on a name compares it with each case in turn: names without a rule skip both.
    let ruleName = traits.contains(.startTagRule) ? name : ""
    switch ruleName {
    case "html":
      if let root = open.first?.element, root.name == "html" {
        merge(attributes, into: root)
        return
      }
      if bodyStarted || !open.isEmpty { return }
    case "body":
      if let body = open.first(where: { $0.element.name == "body" })?.element {
        merge(attributes, into: body)
        return
      }
      if bodyStarted { return }
      if open.last?.traits.nameID == headNameID { open.removeLast() }
    case "head":
      if bodyStarted || open.mayHold(HTMLElementTraits(name: "head"))
        || open.mayHold(HTMLElementTraits(name: "body"))
      {
        return
      }
    default:
      if !traits.contains(.headContent) {
        if open.last?.traits.nameID == headNameID { open.removeLast() }
        bodyStarted = true
      }
    }
    if traits.contains(.closesParagraph) || (name == "table" && !quirks) {
      closeInScope("p", boundaries: [.scope, .button])
    }
    switch ruleName {
    case "td", "th":
      popToTable(keeping: [.tableRow, .tableSection])
    case "tr":
      popToTable(keeping: .tableSection)
    case "h1", "h2", "h3", "h4", "h5", "h6":
      if open.last?.traits.contains(.heading) == true { open.removeLast() }
    case "li":
      closeListItem(["li"])
      closeInScope("p", boundaries: [.scope, .button])
    case "dd", "dt":
      closeListItem(["dd", "dt"])
      closeInScope("p", boundaries: [.scope, .button])
    case "a", "nobr":
      if formattingElement(named: name) != nil {
        adoptionAgency(name)
        if let stale = formattingElement(named: name) {
          removeFormattingEntry(of: stale)
          if let position = open.lastIndex(where: { $0.element === stale }) {
            open.remove(at: position)
          }
        }
      }
    case "button":
      closeInScope(name, boundaries: .scope)
    case "option":
      if current?.name == "option" { open.removeLast() }
    case "optgroup":
      if current?.name == "option" { open.removeLast() }
      if current?.name == "optgroup" { open.removeLast() }
    case "caption", "colgroup", "tbody", "thead", "tfoot":
      popToTable(keeping: [])
    default: break
    }
    if !traits.contains(.noReconstruction), !isTableContext { reconstructFormatting() }
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
      dropNextNewline = true
    }
    if current?.preservesContent == true { element.preservesContent = true }
    open.append(OpenElement(element, foreign: false, traits: traits))
  }

  /// The content of a raw text element, up to its end tag, as its one text child.
  private mutating func rawText(of element: MarkupElement, endingEverything: Bool) {
    let start = index
    var end = bytes.count
    var after = bytes.count
    if !endingEverything {
      var position = start
      while let found = bytes.offset(past: "</", from: position) {
        let nameEnd = found + element.name.utf8.count
        // `</script` at the very end is text, as the tokenizer emits it.
        if nameEnd < bytes.count,
          asciiLowercased(String(decoding: bytes[found..<nameEnd], as: UTF8.self)) == element.name,
          isWhitespaceByte(bytes[nameEnd]) || bytes[nameEnd] == UInt8(ascii: "/")
            || bytes[nameEnd] == UInt8(ascii: ">")
        {
          end = found - 2
          // The end tag's attributes are read as a start tag's, so a quoted `>` does not end it;
          // a tag that runs to the end of the input goes, as in the browser.
          index = nameEnd
          after = attributes() == nil ? bytes.count : index
          break
        }
        position = found
      }
    }
    var content = String(decoding: bytes[start..<end], as: UTF8.self)
    if element.name == "textarea" { content = droppingLeadingNewline(content) }
    if !content.isEmpty { element.children.append(.text(content)) }
    index = after
  }

  private mutating func closeElement(named name: String) {
    // `</p>` and `</br>` in SVG or MathML leave it first, as the standard's foreign-content rules
    // say, and then act as in HTML.
    if name == "p" || name == "br" {
      while let last = open.last, last.foreign, !last.traits.contains(.integrationPoint) {
        open.removeLast()
      }
    }
    if open.last?.foreign == true {
      for position in open.indices.reversed() {
        guard open[position].foreign else { break }
        if asciiLowercased(open[position].element.name) == name {
          open.removeSubrange(position...)
          return
        }
      }
    }
    let traits = HTMLElementTraits(name: name)
    switch traits.contains(.endTagRule) ? name : "" {
    case "p":
      // Before the body (nothing of it yet, no `<body>`, not in a `template`, whose content
      // follows the body's rules) a stray `</p>` is ignored.
      if !closeInScope("p", boundaries: [.scope, .button]),
        bodyStarted || open.mayHold(HTMLElementTraits(name: "body"))
          || open.mayHold(HTMLElementTraits(name: "template"))
      {
        append(.element(MarkupElement(name: "p", attributes: [])))
        bodyStarted = true
        sawElement = true
      }
    case "br":
      openElement(written: "br", attributes: [], selfClosing: false)
    case "body", "html":
      break
    case "head":
      if open.last?.traits.nameID == headNameID { open.removeLast() }
    case "li":
      closeInScope("li", boundaries: [.scope, .list])
    case "h1", "h2", "h3", "h4", "h5", "h6":
      if let position = open.lastIndex(where: { $0.traits.contains(.heading) }),
        !open[position...].dropFirst().contains(where: { $0.traits.contains(.scope) })
      {
        open.removeSubrange(position...)
      }
    case "table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup":
      closeInScope(name, boundaries: .tableScope)
    case "dialog",
      _ where traits.contains(.special):
      // `dialog` is not special, but its end tag is handled as a block's.
      closeInScope(name, boundaries: .scope)
    case _ where traits.contains(.formatting):
      adoptionAgency(name)
    default:
      closeOther(name)
    }
  }

  /// Closes the nearest open `name` unless a boundary comes first; whether it did.
  @discardableResult
  private mutating func closeInScope(_ name: String, boundaries: HTMLElementTraits) -> Bool {
    // Most start tags ask for a `p`; without this, 10,000 open `div`s cost 10,000 steps each.
    let id = HTMLElementTraits(name: name).nameID
    guard open.mayHold(HTMLElementTraits(name: name)) else { return false }
    for position in open.indices.reversed() {
      // Names the standard lists compare by their ID.
      let sameName =
        id == 0 ? open[position].element.name == name : open[position].traits.nameID == id
      if sameName, !open[position].foreign {
        open.removeSubrange(position...)
        return true
      }
      if !open[position].traits.isDisjoint(with: boundaries) || open[position].foreign {
        return false
      }
    }
    return false
  }

  /// An `li`, `dd` or `dt` closes the open one of its kind, unless a block other than `address`,
  /// `div` or `p` stands between them.
  private mutating func closeListItem(_ names: [String]) {
    for position in open.indices.reversed() {
      if names.contains(open[position].element.name) {
        open.removeSubrange(position...)
        return
      }
      let traits = open[position].traits
      if traits.contains(.special), !traits.contains(.listItemTransparent) { return }
    }
  }

  /// Closes what is open inside the nearest table, down to the first element named in `keeping`.
  private mutating func popToTable(keeping: HTMLElementTraits) {
    guard
      let table = open.lastIndex(where: { $0.traits.nameID == tableNameID && !$0.foreign }),
      !open[table...].contains(where: { $0.foreign })
    else { return }
    while open.count - 1 > table, open.last!.traits.isDisjoint(with: keeping) {
      open.removeLast()
    }
  }

  // MARK: - Formatting elements (the standard's "adoption agency")

  private struct FormattingEntry {
    var element: MarkupElement
    var isMarker: Bool
  }

  private var isTableContext: Bool {
    guard let last = open.last, !last.foreign else { return false }
    return last.traits.contains(.tableContext)
  }

  private func isOpen(_ element: MarkupElement) -> Bool { element.isOpen }

  /// Drops the entries after a marker whose cell, caption or object has closed.
  private mutating func clearClosedMarkers() {
    while let marker = formatting.lastIndex(where: \.isMarker), !isOpen(formatting[marker].element)
    {
      formatting.removeSubrange(marker...)
    }
  }

  /// The last active formatting element named `name` after the last marker.
  private mutating func removeFormattingEntry(of element: MarkupElement) {
    if let position = formatting.lastIndex(where: { $0.element === element }) {
      formatting.remove(at: position)
    }
  }

  private mutating func formattingElement(named name: String) -> MarkupElement? {
    clearClosedMarkers()
    for entry in formatting.reversed() {
      if entry.isMarker { return nil }
      if entry.element.name == name { return entry.element }
    }
    return nil
  }

  /// Reopens the formatting elements that a closed block cut short, as copies, at the current
  /// node: `<p><b>x<p>y` puts `y` in a new `b`.
  private mutating func reconstructFormatting() {
    clearClosedMarkers()
    guard let last = formatting.last, !last.isMarker, !isOpen(last.element) else { return }
    var first = formatting.count - 1
    while first > 0, !formatting[first - 1].isMarker, !isOpen(formatting[first - 1].element) {
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

  /// The end tag of a formatting element, as the standard's adoption agency handles it: the
  /// element ends, and the blocks opened inside it keep a copy of it around their content.
  private mutating func adoptionAgency(_ name: String) {
    for _ in 0..<8 {
      guard let element = formattingElement(named: name) else {
        closeOther(name)
        return
      }
      guard let elementPosition = open.lastIndex(where: { $0.element === element }) else {
        removeFormattingEntry(of: element)
        return
      }
      if open[(elementPosition + 1)...].contains(where: { $0.traits.contains(.scope) }) {
        return
      }
      guard
        let blockPosition = open.indices[(elementPosition + 1)...].first(where: {
          open[$0].traits.contains(.special) && !open[$0].foreign
        })
      else {
        open.removeSubrange(elementPosition...)
        removeFormattingEntry(of: element)
        return
      }
      let furthestBlock = open[blockPosition].element
      let commonAncestor = elementPosition > 0 ? open[elementPosition - 1].element : nil
      var bookmark = formatting.lastIndex { $0.element === element }!
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
  }

  /// The standard's "any other end tag": closes the nearest open element of that name, unless a
  /// special element (a block, a table part…) stands between them.
  private mutating func closeOther(_ name: String) {
    for position in open.indices.reversed() {
      let element = open[position].element
      if element.name == name, !open[position].foreign {
        open.removeSubrange(position...)
        return
      }
      if open[position].traits.contains(.special) { return }
    }
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

private let headNameID = HTMLElementTraits(name: "head").nameID
private let tableNameID = HTMLElementTraits(name: "table").nameID

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

  /// Whether an element with a name of these traits may be open: `false` only when none is.
  /// A name the standard does not list is never ruled out.
  func mayHold(_ traits: HTMLElementTraits) -> Bool {
    traits.nameID == 0 || counts[traits.nameID] > 0
  }

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
