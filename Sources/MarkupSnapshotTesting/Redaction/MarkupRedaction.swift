/// A part of an HTML or XML snapshot to replace with `[redacted]`: an attribute's value or an
/// element's content, chosen by a CSS-like selector.
///
/// ```swift
/// assertSnapshot(
///   of: page,
///   as: .html(redacting: [
///     .attribute("value", of: "input[name=csrf_token]"),
///     .attribute("nonce", of: "script"),
///     .text(of: "time.published"),
///   ])
/// )
/// ```
///
/// A selector is a chain of compounds joined by a space (any descendant) or `>` (a child). A
/// compound is an element name or `*`, then any of `#id`, `.class`, `[name]`, `[name=value]`,
/// `[name~=word]`, `[name^=prefix]`, `[name$=suffix]` and `[name*=part]`; values may be quoted.
/// An XML name with a prefix is written with `|` (`atom|link` for `<atom:link>`). HTML names
/// compare without case, XML names exactly. A selector with a syntax error, or one that matches
/// nothing (or, for an attribute, no element that has it), fails the assertion with a message
/// naming it, and nothing is recorded.
public struct MarkupRedaction: Sendable {
  enum Target: Sendable, Equatable {
    case attribute(String)
    case content
  }

  let selector: String
  let target: Target

  /// The value of the attribute `name` of every element `selector` matches.
  public static func attribute(_ name: String, of selector: String) -> MarkupRedaction {
    MarkupRedaction(selector: selector, target: .attribute(name))
  }

  /// The content (text and child elements) of every element `selector` matches.
  public static func text(of selector: String) -> MarkupRedaction {
    MarkupRedaction(selector: selector, target: .content)
  }

  static let placeholder = "[redacted]"

  /// Applies `redactions` to `document`; the first message that says why one could not be.
  static func apply(
    _ redactions: [MarkupRedaction],
    to document: MarkupDocument,
    caseSensitive: Bool,
    format: String
  ) -> String? {
    guard !redactions.isEmpty else { return nil }
    let selectors: [MarkupSelector]
    do {
      selectors = try redactions.map { (redaction) throws(MarkupSelector.SyntaxError) in
        try MarkupSelector(parsing: redaction.selector)
      }
    } catch {
      return error.description
    }
    var matchedElement = Array(repeating: false, count: redactions.count)
    var redacted = Array(repeating: false, count: redactions.count)
    var ancestors: [MarkupElement] = []
    var pending: [(node: MarkupNode, depth: Int)] = document.nodes.reversed().map { ($0, 0) }
    while let (node, depth) = pending.popLast() {
      guard case .element(let element) = node else { continue }
      ancestors.removeSubrange(depth...)
      for (position, selector) in selectors.enumerated()
      where selector.matches(element, ancestors: ancestors[...], caseSensitive: caseSensitive) {
        matchedElement[position] = true
        switch redactions[position].target {
        case .content:
          element.children = [.text(placeholder)]
          redacted[position] = true
        case .attribute(let name):
          for index in element.attributes.indices
          where caseSensitive
            ? element.attributes[index].name == name
            : asciiLowercased(element.attributes[index].name) == asciiLowercased(name)
          {
            element.attributes[index].value = placeholder
            redacted[position] = true
          }
        }
      }
      ancestors.append(element)
      pending += element.children.reversed().map { ($0, depth + 1) }
    }
    if let position = matchedElement.firstIndex(of: false) {
      return "The redaction selector \"\(redactions[position].selector)\" matched nothing in the "
        + "\(format)."
    }
    if let position = redacted.firstIndex(of: false),
      case .attribute(let name) = redactions[position].target
    {
      return "No element that \"\(redactions[position].selector)\" matches in the \(format) has "
        + "the attribute \"\(name)\"."
    }
    return nil
  }
}
