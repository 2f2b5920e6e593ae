/// Writes a ``MarkupDocument`` in the canonical, indented form: one element per line, children
/// two spaces deeper, attributes in source order in double quotes, an element whose only content
/// is one line of text on one line, and preserved content exactly as it was.
///
/// It walks the tree with an explicit stack, so depth costs memory, never the call stack.
/// Indentation stops growing at ``maximumIndentedDepth`` levels, so that a page of 10,000 nested
/// elements prints in a few megabytes rather than a hundred.
/// - Complexity: O(*n*) for a document of *n* bytes.
struct CanonicalPrinter {
  enum Flavor {
    /// Text: whitespace runs collapse to one space, as a browser shows them.
    case html
    /// Text: trimmed at both ends, kept as it is inside.
    case xml
  }

  static let maximumIndentedDepth = 100

  let flavor: Flavor

  func print(_ document: MarkupDocument) -> String {
    var output = document.byteOrderMark ? "\u{FEFF}" : ""
    var pending: [(node: MarkupNode, depth: Int, closing: Bool)] = document.nodes.reversed().map {
      ($0, 0, false)
    }
    while let (node, depth, closing) = pending.popLast() {
      let indent = String(repeating: "  ", count: min(depth, Self.maximumIndentedDepth))
      switch node {
      case .element(let element) where closing:
        output += "\(indent)</\(element.name)>\n"
      case .element(let element):
        output += indent
        if element.isVoid {
          output += startTag(element) + "\n"
        } else if element.children.isEmpty {
          output +=
            element.closesItself
            ? startTag(element, closed: true) + "\n"
            : startTag(element) + "</\(element.name)>\n"
        } else if element.preservesContent || element.holdsRawText
          || (flavor == .html && element.name == "plaintext")
        {
          let (text, endsDocument) = compact(element)
          // Everything after `<plaintext>` is its text, end tags too: it is the last thing printed.
          if endsDocument { return output + text }
          output += text + "\n"
        } else if let line = singleLine(element) {
          output += startTag(element) + line + "</\(element.name)>\n"
        } else {
          output += startTag(element) + "\n"
          pending.append((node, depth, true))
          pending += element.children.reversed().map { ($0, depth + 1, false) }
        }
      case .text(let text):
        let normalized = normalize(text)
        if !normalized.isEmpty { output += indent + normalized + "\n" }
      case .comment(let text):
        output += "\(indent)<!--\(text)-->\n"
      case .cdata(let text):
        output += "\(indent)<![CDATA[\(text)]]>\n"
      case .verbatim(let text):
        output += indent + text + "\n"
      }
    }
    return output
  }

  /// The text of an element whose only child is text that fits on one line.
  private func singleLine(_ element: MarkupElement) -> String? {
    guard element.children.count == 1, case .text(let text) = element.children[0] else {
      return nil
    }
    let normalized = normalize(text)
    return normalized.contains("\n") ? nil : normalized
  }

  private func normalize(_ text: String) -> String {
    switch flavor {
    case .xml:
      let bytes = Array(text.utf8)
      guard let first = bytes.firstIndex(where: { !isWhitespaceByte($0) }),
        let last = bytes.lastIndex(where: { !isWhitespaceByte($0) })
      else { return "" }
      return String(decoding: bytes[first...last], as: UTF8.self)
    case .html:
      var result: [UInt8] = []
      result.reserveCapacity(text.utf8.count)
      var space = false
      for byte in text.utf8 {
        if isWhitespaceByte(byte) {
          space = !result.isEmpty
        } else {
          if space { result.append(0x20) }
          space = false
          result.append(byte)
        }
      }
      return String(decoding: result, as: UTF8.self)
    }
  }

  func startTag(_ element: MarkupElement, closed: Bool = false) -> String {
    var tag = "<" + element.name
    for attribute in element.attributes {
      tag += " " + attribute.name
      if let value = attribute.value { tag += "=\"\(value)\"" }
    }
    return tag + (closed ? "/>" : ">")
  }

  /// An element and its content exactly as parsed, on as many lines as its text has, and whether
  /// it holds a `plaintext` element, after which nothing can be printed.
  func compact(_ root: MarkupElement) -> (text: String, endsDocument: Bool) {
    var output = ""
    var pending: [(node: MarkupNode, closing: Bool)] = [(.element(root), false)]
    while let (node, closing) = pending.popLast() {
      switch node {
      case .element(let element) where closing:
        if flavor == .html, element.name == "plaintext" { return (output, true) }
        output += "</\(element.name)>"
      case .element(let element):
        if element.isVoid {
          output += startTag(element)
        } else if element.children.isEmpty, element.closesItself {
          output += startTag(element, closed: true)
        } else {
          output += startTag(element)
          // The parser drops one newline right after these start tags; this one is that newline.
          if flavor == .html, !element.closesItself,
            ["pre", "textarea", "listing"].contains(element.name)
          {
            output += "\n"
          }
          pending.append((node, true))
          pending += element.children.reversed().map { ($0, false) }
        }
      case .text(let text): output += text
      case .comment(let text): output += "<!--\(text)-->"
      case .cdata(let text): output += "<![CDATA[\(text)]]>"
      case .verbatim(let text): output += text
      }
    }
    return (output, false)
  }
}
