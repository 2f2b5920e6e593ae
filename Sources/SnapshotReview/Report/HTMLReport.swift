import Foundation
import RunRecord

/// One self-contained HTML page of the pending failures: CSS and script inline, images embedded
/// as `data:` URIs, nothing loaded from the network, so it can be kept as a CI artifact and opened
/// anywhere.
///
/// Text failures show their unified diff with removed and added lines coloured; image failures
/// show reference, new image and difference side by side, and a swipe and an onion-skin view.
/// Each entry names the test, its file and line, and the command that accepts it. The page's
/// script sets `data-status="ready"` on the root element once it has run, or `"error"` if any
/// script failed, so a headless browser can check it.
package struct HTMLReport {
  package var failures: [PendingFailure]
  package var hints: CommandHints
  package var artifactsRoot: URL
  /// More artifacts folders the failures were read from.
  package var additionalArtifactsRoots: [URL] = []
  package var generatedAt: Date
  /// Set when the page is served (`report --serve`): each entry gets Accept and Reject buttons
  /// that ask the server, with its token, and the page polls the server's change stamp.
  package var served: Served? = nil
  /// Set to show one page of the failures (the served page); `nil` shows them all, as the
  /// report kept as a file does.
  package var page: Page? = nil
  /// Whether the page offers `accept --all` (see ``ReviewSession/suggestsAll(for:filters:)``).
  package var suggestsAcceptAll = true

  /// Which failures a page shows: the `number`th run of `size`, counted from 1.
  package struct Page: Sendable, Equatable {
    package var number: Int
    package var size: Int

    package init(number: Int, size: Int) {
      self.number = number
      self.size = size
    }
  }

  /// What a served page needs from its server.
  package struct Served: Sendable {
    /// Sent back with every request that changes a file.
    package var token: String
    /// The artifacts folders' ``ArtifactsStamp`` when the page was made.
    package var stamp: String

    package init(token: String, stamp: String) {
      self.token = token
      self.stamp = stamp
    }
  }

  package init(
    failures: [PendingFailure],
    hints: CommandHints,
    artifactsRoot: URL,
    generatedAt: Date = Date()
  ) {
    self.failures = failures
    self.hints = hints
    self.artifactsRoot = artifactsRoot
    self.generatedAt = generatedAt
  }

  /// Files larger than this are linked rather than embedded, to keep the page openable.
  static let embeddingLimit = 16 << 20

  package func render() -> String {
    let title =
      failures.isEmpty
      ? "No pending snapshot failures" : count(failures.count, "pending snapshot failure")
    let folders = ([artifactsRoot] + additionalArtifactsRoots)
      .map { "<code>\(escape($0.path))</code>" }.joined(separator: ", ")
    var html = """
      <!doctype html>
      <html lang="en" data-status="loading">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(escape(title))</title>
      \(served.map { """
        <meta name="snapshot-testing-token" content="\(escape($0.token))">
        <meta name="snapshot-testing-stamp" content="\(escape($0.stamp))">
        """ } ?? "")
      <style>\(ReportAssets.css)</style>
      <script>\(ReportAssets.errorHandler)</script>
      </head>
      <body>
      <header>
      <h1>\(escape(title))</h1>
      <p class="meta">Artifacts: \(folders) · generated \
      \(escape(ISO8601DateFormatter().string(from: generatedAt)))</p>

      """
    if !failures.isEmpty && suggestsAcceptAll {
      html += """
        <p class="meta">Accept all: \(commandBlock(hints.command("accept", ["--all"])))</p>

        """
    }
    if served != nil {
      let acceptAll =
        failures.isEmpty
        ? "" : "<button type=\"button\" id=\"accept-all\">Accept all shown</button> "
      html += "<p class=\"served\">\(acceptAll)<span id=\"served-status\" role=\"status\">"
      html += "Served by snapshot-testing: Accept and Reject change files in the package."
      html += "</span></p>\n"
      html += "<p id=\"artifacts-gone\" class=\"gone\" hidden></p>\n"
    }
    html += "<pre id=\"script-errors\" hidden></pre>\n</header>\n<main>\n"
    if failures.isEmpty {
      html += "<p class=\"empty\">Every snapshot matched its reference.</p>\n"
    }
    let shown = shownRange
    let navigation = pageNavigation(shown)
    html += navigation
    for index in shown {
      html += entry(failures[index], index: index + 1)
    }
    html += navigation
    html += "</main>\n<script>\(ReportAssets.script)</script>\n"
    if served != nil { html += "<script>\(ReportAssets.servedScript)</script>\n" }
    html += "</body>\n</html>\n"
    return html
  }

  /// The failures this page shows: all of them, or one page's.
  var shownRange: Range<Int> {
    guard let page, page.size > 0 else { return failures.indices }
    let start = min(failures.count, (page.number - 1) * page.size)
    return start..<min(failures.count, start + page.size)
  }

  /// Where this page is among the pages and links to its neighbours (`rel` prev and next), or
  /// nothing when one page shows every failure.
  private func pageNavigation(_ shown: Range<Int>) -> String {
    guard let page, shown.count < failures.count else { return "" }
    var links: [String] = []
    if page.number > 1 {
      links.append("<a href=\"/?page=\(page.number - 1)\" rel=\"prev\">Previous \(page.size)</a>")
    }
    if shown.upperBound < failures.count {
      let next = min(page.size, failures.count - shown.upperBound)
      links.append("<a href=\"/?page=\(page.number + 1)\" rel=\"next\">Next \(next)</a>")
    }
    let place =
      "Failures \(shown.lowerBound + 1)–\(shown.upperBound) of \(failures.count) "
      + "(page \(page.number) of \((failures.count + page.size - 1) / page.size))"
    return "<nav class=\"pages\">\(([place] + links).joined(separator: " · "))</nav>\n"
  }

  private func entry(_ failure: PendingFailure, index: Int) -> String {
    let record = failure.record
    let format = failure.isImage ? "image" : failure.isInline ? "inline" : "text"
    let reference = failure.referenceURL?.path ?? record.referencePath
    var html = """
      <article class="entry" id="failure-\(index)" data-kind="\(record.reason.rawValue)" \
      data-format="\(format)"\(servedID(failure))>
      <h2><span class="kind \(record.reason.rawValue)">\(record.reason == .missing ? "new" : "changed")\
      </span> \(escape(record.testName))\(record.snapshotName.map { " <span class=\"name\">“\(escape($0))”</span>" } ?? "")</h2>
      <dl class="where">
      <dt>test</dt><dd><code>\(escape(hints.display(failure.testFilePath))):\(record.line)</code></dd>
      <dt>reference</dt><dd><code>\(escape(hints.display(reference)))</code>\
      \(record.reason == .missing ? " (none yet)" : "")</dd>
      </dl>
      <p class="headline">\(escape(failure.headline))</p>

      """
    html += failure.isImage ? imageViews(failure) : textDiff(failure)
    if !failure.isImage, record.pathExtension?.lowercased() == "svg" { html += svgViews(failure) }
    html += "<p class=\"accept\">Accept: \(commandBlock(hints.acceptCommand(for: failure)))</p>\n"
    if served != nil {
      html += """
        <p class="actions"><button type="button" class="decide" data-decision="accept">Accept\
        </button> <button type="button" class="decide" data-decision="reject">Reject</button> \
        <span class="outcome" role="status"></span></p>

        """
    }
    html += "</article>\n\n"
    return html
  }

  // MARK: - Text

  /// A failure's text, bounded as `review` bounds it (``DifferenceExcerpt``), with the note that
  /// says where the whole is.
  private func textDiff(_ failure: PendingFailure) -> String {
    if failure.isInline {
      return changesList(failure) + diffViews(inlineDifference(of: failure), of: failure)
    }
    if failure.record.reason == .mismatch, let patchURL = failure.file(.patch),
      let patch = try? String(contentsOf: patchURL, encoding: .utf8)
    {
      return changesList(failure) + diffViews(patch, of: failure)
    }
    if failure.record.reason == .missing, let listing = folderListing(failure.failedSnapshotURL) {
      let rendered = listing.split(separator: "\n").map {
        "<span class=\"added\">\(escape(String($0)))</span>"
      }
      return "<pre class=\"diff\">\(rendered.joined())</pre>\n"
    }
    if failure.record.reason == .missing,
      let data = try? Data(contentsOf: failure.failedSnapshotURL),
      let text = String(data: data, encoding: .utf8)
    {
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      if lines.last == "" { lines.removeLast() }
      // Marked before bounding, so that no leading whitespace is trimmed away.
      let added = lines.map { "+" + $0 }.joined(separator: "\n")
      let excerpt = DifferenceExcerpt(added, patchPath: hints.wholeDifference(of: failure))
      let rendered = excerpt.kept.split(separator: "\n", omittingEmptySubsequences: false).map {
        "<span class=\"added\">\(escape(String($0)))</span>"
      }
      return "<pre class=\"diff\">\(rendered.joined())</pre>\n" + omission(excerpt)
    }
    return "<pre class=\"message\">\(escape(failure.record.message))</pre>\n"
  }

  // MARK: - SVG

  /// An SVG reference (`.terminal`) is text, compared and diffed as text; it is also shown as the
  /// image it is, the reference beside the new snapshot. An `img` runs no script in the SVG.
  private func svgViews(_ failure: PendingFailure) -> String {
    func embedSVG(_ url: URL?) -> EmbeddedImage? {
      guard let url else { return nil }
      guard let data = try? Data(contentsOf: url) else {
        return EmbeddedImage(source: nil, size: nil, path: url.path)
      }
      let source =
        data.count <= Self.embeddingLimit
        ? "data:image/svg+xml;base64,\(data.base64EncodedString())" : url.absoluteString
      return EmbeddedImage(source: source, size: nil, path: url.path)
    }
    let referenceFile =
      failure.file(.reference)
      ?? failure.referenceURL.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    var html = "<div class=\"images\" data-view=\"side\"><div class=\"view side\">\n"
    if failure.record.reason != .missing {
      html += figure(embedSVG(referenceFile), caption: "Reference")
    }
    html += figure(
      embedSVG(failure.failedSnapshotURL),
      caption: failure.record.reason == .missing ? "New snapshot" : "New"
    )
    return html + "</div></div>\n"
  }

  /// ` data-id="<record path>"` on a served page: what its buttons name.
  private func servedID(_ failure: PendingFailure) -> String {
    served == nil ? "" : " data-id=\"\(escape(failure.recordURL.path))\""
  }

  /// The changed values of a JSON or property-list snapshot, by path, before its diff.
  private func changesList(_ failure: PendingFailure) -> String {
    guard let changes = failure.structuredChanges, !changes.isEmpty else { return "" }
    let items = changes.map { "<li><code>\(escape($0))</code></li>" }.joined()
    return "<ul class=\"changes\" aria-label=\"Changed values\">\(items)</ul>\n"
  }

  /// What was left out of a bounded text, and where the whole is.
  private func omission(_ excerpt: DifferenceExcerpt) -> String {
    excerpt.note.map { "<p class=\"omitted\">\(escape($0))</p>\n" } ?? ""
  }

  /// A unified diff, and the same side by side, with the changed words of paired lines marked;
  /// bounded as the failure message is.
  private func diffViews(_ patch: String, of failure: PendingFailure) -> String {
    let excerpt = DifferenceExcerpt(patch, patchPath: hints.wholeDifference(of: failure))
    let paired = PairedPatch(PatchLine.parse(excerpt.kept))
    // Each line is a block of its own, so no newline goes between them.
    let unified = paired.lines.enumerated().map { html($1, words: paired.words[$0]) }.joined()
    return """
      <div class="text-views" data-view="unified">\
      <div class="tabs" role="tablist">\
      <button type="button" data-view="unified" aria-selected="true">Unified</button>\
      <button type="button" data-view="split" aria-selected="false">Side by side</button></div>
      <pre class="diff view unified">\(unified)</pre>
      \(sideBySide(paired))</div>
      \(omission(excerpt))
      """
  }

  private func html(_ line: PatchLine, words: [WordDiff.Segment]?) -> String {
    switch line {
    case .hunk(let text): return "<span class=\"hunk\">\(escape(text))</span>"
    case .removed(let text):
      return "<span class=\"removed\">\(marked(text, words, tag: "del"))</span>"
    case .added(let text):
      return "<span class=\"added\">\(marked(text, words, tag: "ins"))</span>"
    case .context(let text): return "<span>\(escape(text))</span>"
    }
  }

  /// The line with its changed words in `<del>` or `<ins>`; `text` starts with its marker.
  private func marked(_ text: String, _ words: [WordDiff.Segment]?, tag: String) -> String {
    guard let words else { return escape(text) }
    return escape(String(text.prefix(1)))
      + words.map { $0.changed ? "<\(tag)>\(escape($0.text))</\(tag)>" : escape($0.text) }.joined()
  }

  /// Reference on the left, new on the right: each removed line beside the added line it pairs
  /// with.
  private func sideBySide(_ paired: PairedPatch) -> String {
    var rows = ""
    let lines = paired.lines
    func cell(_ index: Int?, _ kind: String) -> String {
      guard let index else { return "<td class=\"blank\"></td>" }
      let words = paired.words[index]
      switch lines[index] {
      case .removed(let text):
        return "<td class=\"removed\">\(marked(text, words, tag: "del").dropFirstMarker)</td>"
      case .added(let text):
        return "<td class=\"added\">\(marked(text, words, tag: "ins").dropFirstMarker)</td>"
      case .context(let text), .hunk(let text):
        return "<td class=\"\(kind)\">\(escape(String(text.dropFirst())))</td>"
      }
    }
    var index = 0
    while index < lines.count {
      switch lines[index] {
      case .hunk(let text):
        rows += "<tr><td class=\"hunk\" colspan=\"2\">\(escape(text))</td></tr>"
        index += 1
      case .context:
        rows += "<tr>\(cell(index, "context"))\(cell(index, "context"))</tr>"
        index += 1
      case .removed, .added:
        var removed: [Int] = []
        var added: [Int] = []
        while index < lines.count, case .removed = lines[index] {
          removed.append(index)
          index += 1
        }
        while index < lines.count, case .added = lines[index] {
          added.append(index)
          index += 1
        }
        for row in 0..<max(removed.count, added.count) {
          let left = row < removed.count ? removed[row] : nil
          let right = row < added.count ? added[row] : nil
          rows += "<tr>\(cell(left, "removed"))\(cell(right, "added"))</tr>"
        }
      }
    }
    return """
      <table class="split view"><thead><tr><th>Reference</th><th>New</th></tr></thead>\
      <tbody>\(rows)</tbody></table>
      """
  }

  // MARK: - Images

  private struct EmbeddedImage {
    var source: String?
    var size: PNGSize?
    var path: String
  }

  private func embed(_ url: URL?) -> EmbeddedImage? {
    guard let url else { return nil }
    guard let data = try? Data(contentsOf: url) else {
      return EmbeddedImage(source: nil, size: nil, path: url.path)
    }
    let source =
      data.count <= Self.embeddingLimit
      ? "data:image/png;base64,\(data.base64EncodedString())" : url.absoluteString
    return EmbeddedImage(source: source, size: PNGSize(data), path: url.path)
  }

  private func imageViews(_ failure: PendingFailure) -> String {
    let referenceFile =
      failure.file(.reference)
      ?? failure.referenceURL.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    let reference = embed(referenceFile)
    let new = embed(failure.failedSnapshotURL)
    let difference = embed(failure.file(.differenceImage))
    let width = [reference, new].compactMap { $0?.size?.displayWidth }.max() ?? 240

    var html = "<div class=\"images\" data-view=\"side\" style=\"--image-width: \(width)px\">\n"
    let canCompare = reference?.source != nil && new?.source != nil
    if canCompare {
      html += """
        <div class="tabs" role="tablist">\
        <button type="button" data-view="side" aria-selected="true">Side by side</button>\
        <button type="button" data-view="swipe" aria-selected="false">Swipe</button>\
        <button type="button" data-view="onion" aria-selected="false">Onion skin</button>\
        </div>

        """
    }
    html += "<div class=\"view side\">\n"
    html += figure(reference, caption: "Reference")
    html += figure(new, caption: failure.record.reason == .missing ? "New snapshot" : "New")
    if let difference { html += figure(difference, caption: "Difference") }
    html += "</div>\n"
    if canCompare, let reference, let new, let under = reference.source, let over = new.source {
      html += """
        <div class="view swipe">
        <div class="stack"><img class="under" src="\(under)" alt="Reference">\
        <img class="over" src="\(over)" alt="New"><div class="divider"></div></div>
        <label>Reference ◀ <input type="range" min="0" max="100" value="50" aria-label="Swipe"> ▶ New</label>
        </div>
        <div class="view onion">
        <div class="stack"><img class="under" src="\(under)" alt="Reference">\
        <img class="over" src="\(over)" alt="New"></div>
        <label>Reference <input type="range" min="0" max="100" value="50" aria-label="Opacity of the new image"> New</label>
        </div>

        """
      if reference.size != new.size, let a = reference.size, let b = new.size {
        html +=
          "<p class=\"note\">Sizes differ: reference \(a.width)×\(a.height), new \(b.width)×\(b.height); the overlays stretch the new image.</p>\n"
      }
    }
    html += "</div>\n"
    html += "<pre class=\"message\">\(escape(failure.details))</pre>\n"
    return html
  }

  private func figure(_ image: EmbeddedImage?, caption: String) -> String {
    guard let image else {
      return
        "<figure><div class=\"absent\">none</div><figcaption>\(caption)</figcaption></figure>\n"
    }
    let size = image.size.map { " · \($0.width)×\($0.height)" } ?? ""
    guard let source = image.source else {
      return """
        <figure><div class="absent">not found: <code>\(escape(image.path))</code></div>\
        <figcaption>\(caption)</figcaption></figure>

        """
    }
    return """
      <figure><img src="\(source)" alt="\(caption)">\
      <figcaption>\(caption)\(size)</figcaption></figure>

      """
  }

  private func commandBlock(_ command: String) -> String {
    "<code class=\"command\">\(escape(command))</code> <button type=\"button\" class=\"copy\">Copy</button>"
  }
}

extension String {
  /// The text without its first character: a diff line's marker, already escaped text.
  fileprivate var dropFirstMarker: String { String(dropFirst()) }
}

/// `text` with HTML's special characters escaped, safe in element content and quoted attributes.
func escape(_ text: String) -> String {
  var escaped = ""
  escaped.reserveCapacity(text.utf8.count)
  for character in text {
    switch character {
    case "&": escaped += "&amp;"
    case "<": escaped += "&lt;"
    case ">": escaped += "&gt;"
    case "\"": escaped += "&quot;"
    case "'": escaped += "&#39;"
    default: escaped.append(character)
    }
  }
  return escaped
}
