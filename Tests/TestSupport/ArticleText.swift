import Foundation

/// The package's root folder (this file is `Tests/TestSupport/ArticleText.swift`).
package let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Why an article's text could not be found: the article no longer says what a test looks for.
package struct ArticleTextMissing: Error, CustomStringConvertible {
  package var description: String
}

/// The text of the first fenced code block after `marker` in the article at `path` (from the
/// package's root), without its fences, for tests that compare what the docs show with a run.
/// A block indented inside a list item is returned without that indentation.
package func codeBlock(in path: String, after marker: String) throws -> String {
  let article = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  guard let start = article.range(of: marker) else {
    throw ArticleTextMissing(description: "\(path) no longer says “\(marker)”")
  }
  let rest = article[start.upperBound...]
  guard let open = rest.range(of: "```"),
    let openingLineEnd = rest[open.upperBound...].firstIndex(of: "\n")
  else { throw ArticleTextMissing(description: "\(path) has no code block after “\(marker)”") }
  let lineStart = rest[..<open.lowerBound].lastIndex(of: "\n").map(rest.index(after:))
  let indent = String(rest[(lineStart ?? open.lowerBound)..<open.lowerBound])
  let body = rest[rest.index(after: openingLineEnd)...]
  guard let close = body.range(of: "\n\(indent)```") else {
    throw ArticleTextMissing(description: "\(path): the code block after “\(marker)” never ends")
  }
  return body[..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    .map { $0.hasPrefix(indent) ? String($0.dropFirst(indent.count)) : String($0) }
    .joined(separator: "\n")
}
