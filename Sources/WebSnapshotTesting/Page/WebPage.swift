import Foundation

/// A page for a headless browser to render: HTML text, an SVG document, or a URL.
///
/// ```swift
/// let page = WebPage(html: "<h1>Invoice</h1>")
/// assertSnapshot(of: page, as: .image)
/// assertSnapshot(of: page, as: .accessibilityTree)
/// ```
///
/// A page may load what it needs from loopback servers (`127.0.0.1`, `::1`, `localhost`),
/// `file:` and `data:` URLs; any other request is blocked and reported as a warning.
public struct WebPage: Sendable, CustomStringConvertible {
  enum Source: Sendable, Equatable {
    case html(String, baseURL: URL?)
    case svg(String)
    case url(URL)
  }

  let source: Source

  /// A page of HTML text.
  ///
  /// ```swift
  /// let page = WebPage(html: "<h1>Invoice</h1>", baseURL: URL(fileURLWithPath: "Public/"))
  /// ```
  ///
  /// - Parameters:
  ///   - html: The document.
  ///   - baseURL: Where the page's relative URLs (style sheets, images) resolve: a folder
  ///     (`file:`, ending in `/`) or a loopback server. Without one they do not resolve.
  public init(html: String, baseURL: URL? = nil) {
    source = .html(html, baseURL: baseURL)
  }

  /// An SVG document, rendered at the size its root `<svg>` element gives.
  ///
  /// ```swift
  /// assertSnapshot(of: WebPage(svg: chart.svgText), as: .image)
  /// ```
  public init(svg: String) {
    source = .svg(svg)
  }

  /// The page at `url`: an `http:` or `https:` URL of a loopback server the test started, or a
  /// `file:` URL.
  ///
  /// ```swift
  /// let page = WebPage(url: URL(string: "http://127.0.0.1:8080/invoices/42")!)
  /// ```
  public init(url: URL) {
    source = .url(url)
  }

  /// The kind of page and its size or URL, for messages: `WebPage(html: 120 bytes)`.
  public var description: String {
    switch source {
    case .html(let html, let baseURL):
      let base = baseURL.map { ", baseURL: \($0.absoluteString)" } ?? ""
      return "WebPage(html: \(html.utf8.count) bytes\(base))"
    case .svg(let svg): return "WebPage(svg: \(svg.utf8.count) bytes)"
    case .url(let url): return "WebPage(url: \(url.absoluteString))"
    }
  }
}
