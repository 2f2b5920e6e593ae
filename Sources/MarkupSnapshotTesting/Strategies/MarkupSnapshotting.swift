import Foundation
import SnapshotTesting

extension Snapshotting where Value == String, Format == String {
  /// Snapshots HTML as canonical, indented text in an `.html` reference: one element per line,
  /// attributes in source order in double quotes, whitespace-only text dropped outside `pre`,
  /// `textarea`, `script` and `style`, so that the diff of a changed page shows the changed
  /// element.
  ///
  /// ```swift
  /// assertSnapshot(of: "<ul><li>One<li>Two</ul>", as: .html)
  /// ```
  ///
  /// records
  ///
  /// ```html
  /// <ul>
  ///   <li>One</li>
  ///   <li>Two</li>
  /// </ul>
  /// ```
  ///
  /// The text is read as a browser reads it (implied end tags, void elements, raw text), fails
  /// only on elements nested more than 100,000 levels deep, and parses back to the same
  /// elements, attributes and text; see <doc:MarkupSnapshots>.
  /// - Complexity: O(*n*) for a page of *n* bytes and a shallow tree.
  public static var html: Snapshotting { .html(redacting: []) }

  /// Snapshots HTML as ``html-2ow1m``, with the parts `redactions` select replaced by `[redacted]`.
  ///
  /// ```swift
  /// assertSnapshot(of: page, as: .html(redacting: [.attribute("value", of: "input[name=csrf]")]))
  /// ```
  public static func html(redacting redactions: [MarkupRedaction]) -> Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (text: String) in
      MarkupText.html(text, redacting: redactions)
    }
    strategy.pathExtension = "html"
    return strategy
  }

  /// Snapshots XML as canonical, indented text in an `.xml` reference: one element per line,
  /// attributes in source order in double quotes, whitespace-only text dropped except under
  /// `xml:space="preserve"`; namespaces, CDATA sections, comments, a byte-order mark and the XML
  /// declaration kept as written.
  ///
  /// ```swift
  /// assertSnapshot(of: sitemap, as: .xml)
  /// ```
  ///
  /// XML that is not well-formed fails the assertion with the line and column of the error, and
  /// nothing is recorded.
  /// - Complexity: O(*n*) for a document of *n* bytes.
  public static var xml: Snapshotting { .xml(redacting: []) }

  /// Snapshots XML as ``xml-k7tj``, with the parts `redactions` select replaced by `[redacted]`.
  ///
  /// ```swift
  /// assertSnapshot(of: feed, as: .xml(redacting: [.text(of: "channel > lastBuildDate")]))
  /// ```
  public static func xml(redacting redactions: [MarkupRedaction]) -> Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (text: String) in
      MarkupText.xml(Array(text.utf8), redacting: redactions)
    }
    strategy.pathExtension = "xml"
    return strategy
  }
}

extension Snapshotting where Value == Data, Format == String {
  /// Snapshots UTF-8 HTML bytes as ``Snapshotting/html-2ow1m``; bytes that are not
  /// UTF-8 become U+FFFD, as in a browser reading the page as UTF-8.
  public static var html: Snapshotting { .html(redacting: []) }

  /// Snapshots UTF-8 HTML bytes with the parts `redactions` select replaced by `[redacted]`.
  public static func html(redacting redactions: [MarkupRedaction]) -> Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (data: Data) in
      MarkupText.html(String(decoding: data, as: UTF8.self), redacting: redactions)
    }
    strategy.pathExtension = "html"
    return strategy
  }

  /// Snapshots UTF-8 XML bytes as ``Snapshotting/xml-k7tj``; bytes that are not
  /// UTF-8 fail the assertion with their line and column.
  public static var xml: Snapshotting { .xml(redacting: []) }

  /// Snapshots UTF-8 XML bytes with the parts `redactions` select replaced by `[redacted]`.
  public static func xml(redacting redactions: [MarkupRedaction]) -> Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (data: Data) in
      MarkupText.xml(Array(data), redacting: redactions)
    }
    strategy.pathExtension = "xml"
    return strategy
  }
}
