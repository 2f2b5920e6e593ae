/// A parsed HTML or XML document: what the canonical printer writes and redaction edits.
///
/// Text and attribute values keep their source spelling (character references are not decoded),
/// so the canonical text means what the original meant to a parser.
final class MarkupElement {
  /// The name as printed: lowercased for HTML elements, as written for XML and foreign content.
  var name: String
  var attributes: [MarkupAttribute]
  var children: [MarkupNode] = []
  /// The element this one is a child of (the HTML reader moves elements when it repairs
  /// misnested formatting elements).
  ///
  /// Unowned rather than weak: a weak reference gives every parent a side table, which made
  /// each retain and release of an element slow. It is safe because an element is only ever
  /// taken out of its parent's children to be put in another's, so a parent outlives the
  /// links to it while the reader runs, and nothing reads the link afterwards.
  unowned var parent: MarkupElement?
  /// The HTML reader's bookkeeping: whether the element is on its stack of open elements.
  var isOpen = false
  /// The content is printed as it was, without indentation (`pre`, `xml:space="preserve"`…).
  var preservesContent = false
  /// The content is one raw text (`script`, `style`, `textarea`, `title`…).
  var holdsRawText = false
  /// An HTML void element (`br`, `img`…): no end tag.
  var isVoid = false
  /// Printed as `<name/>` when it has no children (XML, SVG, MathML).
  var closesItself = false

  init(name: String, attributes: [MarkupAttribute]) {
    self.name = name
    self.attributes = attributes
  }

  /// Releases the subtree with an explicit stack: left to Swift, each element would release its
  /// children from inside its own `deinit`, one stack frame per level, and a deep document would
  /// overflow the stack. A descendant that something else still holds keeps its children.
  deinit {
    guard !children.isEmpty else { return }
    var pending: [MarkupNode] = []
    swap(&pending, &children)
    while var node = pending.popLast() {
      node.moveChildren(into: &pending)
    }
  }

  /// A new element with the same name and attributes and no content.
  func shallowCopy() -> MarkupElement {
    MarkupElement(name: name, attributes: attributes)
  }

  func appendChild(_ element: MarkupElement) {
    element.parent = self
    children.append(.element(element))
  }

  /// Removes `element` from this element's children.
  func removeChild(_ element: MarkupElement) {
    if let index = children.lastIndex(where: {
      if case .element(let child) = $0 { child === element } else { false }
    }) {
      children.remove(at: index)
    }
    element.parent = nil
  }
}

struct MarkupAttribute {
  var name: String
  /// The value as written between its quotes, or `nil` for an attribute without a value.
  var value: String?
}

enum MarkupNode {
  case element(MarkupElement)
  case text(String)
  case comment(String)
  case cdata(String)
  /// A document type, XML declaration or processing instruction, printed exactly as written.
  case verbatim(String)

  /// When this is the only reference to an element, moves the element's children to the end of
  /// `pending`, so that the element is freed childless.
  fileprivate mutating func moveChildren(into pending: inout [MarkupNode]) {
    guard case .element(var element) = self else { return }
    self = .text("")
    guard isKnownUniquelyReferenced(&element), !element.children.isEmpty else { return }
    pending.append(contentsOf: element.children)
    element.children = []
  }
}

/// A parsed document: its top-level nodes and whether it began with a byte-order mark.
struct MarkupDocument {
  var nodes: [MarkupNode]
  var byteOrderMark = false

  /// How deep elements may nest. A deeper document is refused as soon as the reader reaches the
  /// element one level too deep, so that hostile input (100 MB of unclosed tags) costs
  /// milliseconds rather than a tree of millions of levels and gigabytes of indented text.
  /// Browsers stop nesting at 512 levels; no real page comes near this.
  static let maximumDepth = 100_000

  /// Every element, in document order, without recursion.
  var elements: [MarkupElement] {
    var found: [MarkupElement] = []
    var pending: [MarkupNode] = nodes.reversed()
    while let node = pending.popLast() {
      guard case .element(let element) = node else { continue }
      found.append(element)
      pending.append(contentsOf: element.children.reversed())
    }
    return found
  }
}
