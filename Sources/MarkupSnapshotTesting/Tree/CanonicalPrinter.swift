/// Writes a ``MarkupDocument`` in the canonical, indented form: one element per line, children
/// two spaces deeper, attributes in source order in double quotes, an element whose only content
/// is one line of text on one line, and preserved content exactly as it was.
///
/// It walks the tree with an explicit stack, so depth costs memory, never the call stack, and
/// writes UTF-8 into one buffer that becomes the text at the end. Indentation stops growing at
/// ``maximumIndentedDepth`` levels, so that a page of 100,000 nested elements prints in tens of
/// megabytes rather than gigabytes.
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
    var output: [UInt8] = []
    if document.byteOrderMark { output += [0xEF, 0xBB, 0xBF] }
    var pending: [(node: MarkupNode, depth: Int, closing: Bool)] = []
    for node in document.nodes.reversed() { pending.append((node, 0, false)) }
    while let (node, depth, closing) = pending.popLast() {
      let indent = 2 * min(depth, Self.maximumIndentedDepth)
      switch node {
      case .element(let element) where closing:
        output.append(spaces: indent)
        output.append(endTagOf: element)
        output.append(0x0A)
      case .element(let element):
        output.append(spaces: indent)
        if element.isVoid {
          appendStartTag(element, to: &output)
        } else if element.children.isEmpty {
          if element.closesItself {
            appendStartTag(element, closed: true, to: &output)
          } else {
            appendStartTag(element, to: &output)
            output.append(endTagOf: element)
          }
        } else if element.preservesContent || element.holdsRawText
          || (flavor == .html && element.name == "plaintext")
        {
          // Everything after `<plaintext>` is its text, end tags too: it is the last thing printed.
          if appendCompact(element, to: &output) { return String(decoding: output, as: UTF8.self) }
        } else if element.children.count == 1, case .text(let text) = element.children[0],
          appendSingleLine(element, text, to: &output)
        {
        } else {
          appendStartTag(element, to: &output)
          output.append(0x0A)
          pending.append((node, depth, true))
          for child in element.children.reversed() { pending.append((child, depth + 1, false)) }
          continue
        }
        output.append(0x0A)
      case .text(let text):
        let start = output.count
        output.append(spaces: indent)
        let textStart = output.count
        appendNormalized(text, to: &output)
        if output.count == textStart {
          output.removeSubrange(start...)
        } else {
          output.append(0x0A)
        }
      case .comment(let text):
        output.append(spaces: indent)
        output.append(contentsOf: "<!--".utf8)
        output.append(contentsOf: text.utf8)
        output.append(contentsOf: "-->\n".utf8)
      case .cdata(let text):
        output.append(spaces: indent)
        output.append(contentsOf: "<![CDATA[".utf8)
        output.append(contentsOf: text.utf8)
        output.append(contentsOf: "]]>\n".utf8)
      case .verbatim(let text):
        output.append(spaces: indent)
        output.append(contentsOf: text.utf8)
        output.append(0x0A)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Writes the element with its only child, `text`, on one line, unless the text spans lines
  /// (then nothing is written, and the caller prints the element over several lines).
  private func appendSingleLine(
    _ element: MarkupElement,
    _ text: String,
    to output: inout [UInt8]
  ) -> Bool {
    let start = output.count
    appendStartTag(element, to: &output)
    let textStart = output.count
    appendNormalized(text, to: &output)
    if flavor == .xml, output[textStart...].contains(0x0A) {
      output.removeSubrange(start...)
      return false
    }
    output.append(endTagOf: element)
    return true
  }

  /// The text as the canonical form shows it: for HTML with whitespace runs collapsed to one
  /// space and none at either end; for XML trimmed at both ends.
  private func appendNormalized(_ text: String, to output: inout [UInt8]) {
    switch flavor {
    case .xml:
      let bytes = text.utf8
      guard let first = bytes.firstIndex(where: { !isWhitespaceByte($0) }),
        let last = bytes.lastIndex(where: { !isWhitespaceByte($0) })
      else { return }
      output.append(contentsOf: bytes[first...last])
    case .html:
      let start = output.count
      var space = false
      for byte in text.utf8 {
        if isWhitespaceByte(byte) {
          space = output.count > start
        } else {
          if space { output.append(0x20) }
          space = false
          output.append(byte)
        }
      }
    }
  }

  private func appendStartTag(
    _ element: MarkupElement,
    closed: Bool = false,
    to output: inout [UInt8]
  ) {
    output.append(UInt8(ascii: "<"))
    output.append(contentsOf: element.name.utf8)
    for (position, attribute) in element.attributes.enumerated() {
      output.append(0x20)
      output.append(contentsOf: attribute.name.utf8)
      if let value = attribute.value {
        output.append(contentsOf: "=\"".utf8)
        output.append(contentsOf: value.utf8)
        output.append(UInt8(ascii: "\""))
      } else if position + 1 < element.attributes.count,
        element.attributes[position + 1].name.utf8.first == UInt8(ascii: "=")
      {
        // An HTML attribute name may begin with "=" (`<a b/=c>`); after a valueless attribute
        // and a space it would read as that one's value, so the empty value, which is the
        // same, is written.
        output.append(contentsOf: "=\"\"".utf8)
      }
    }
    if closed { output.append(UInt8(ascii: "/")) }
    output.append(UInt8(ascii: ">"))
  }

  /// An element and its content exactly as parsed, on as many lines as its text has; whether it
  /// holds a `plaintext` element, after which nothing can be printed.
  private func appendCompact(_ root: MarkupElement, to output: inout [UInt8]) -> Bool {
    var pending: [(node: MarkupNode, closing: Bool)] = [(.element(root), false)]
    while let (node, closing) = pending.popLast() {
      switch node {
      case .element(let element) where closing:
        if flavor == .html, element.name == "plaintext" { return true }
        output.append(endTagOf: element)
      case .element(let element):
        if element.isVoid {
          appendStartTag(element, to: &output)
        } else if element.children.isEmpty, element.closesItself {
          appendStartTag(element, closed: true, to: &output)
        } else {
          appendStartTag(element, to: &output)
          // The parser drops one newline right after these start tags; this one is that newline.
          if flavor == .html, !element.closesItself,
            element.name == "pre" || element.name == "textarea" || element.name == "listing"
          {
            output.append(0x0A)
          }
          pending.append((node, true))
          for child in element.children.reversed() { pending.append((child, false)) }
        }
      case .text(let text): output.append(contentsOf: text.utf8)
      case .comment(let text):
        output.append(contentsOf: "<!--".utf8)
        output.append(contentsOf: text.utf8)
        output.append(contentsOf: "-->".utf8)
      case .cdata(let text):
        output.append(contentsOf: "<![CDATA[".utf8)
        output.append(contentsOf: text.utf8)
        output.append(contentsOf: "]]>".utf8)
      case .verbatim(let text): output.append(contentsOf: text.utf8)
      }
    }
    return false
  }
}

/// The widest indent, copied from rather than written a space at a time.
private let indentSpaces = [UInt8](
  repeating: 0x20,
  count: 2 * CanonicalPrinter.maximumIndentedDepth
)

extension [UInt8] {
  fileprivate mutating func append(spaces count: Int) {
    append(contentsOf: indentSpaces[..<count])
  }

  fileprivate mutating func append(endTagOf element: MarkupElement) {
    append(contentsOf: "</".utf8)
    append(contentsOf: element.name.utf8)
    append(UInt8(ascii: ">"))
  }
}
