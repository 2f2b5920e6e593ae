import Foundation
import ImageSnapshotTesting

/// Opens a `WebPage` in a fresh, deterministic browser page and waits until it has settled.
///
/// The steps, in order: a new browser context and page, made ready ahead by ``SharedBrowser``,
/// with the emulation that makes renders repeatable (viewport at device scale 1, UTC, en-US,
/// reduced motion) and request blocking; the document written in, or navigation; the `load`
/// event; the HTTP status; then, in the page, the style that hides the
/// caret and scrollbars, `document.fonts.ready`, animations fast-forwarded, and two animation
/// frames. Each wait is noted through `note`, so that a timeout names it.
struct PageLoader {
  /// The viewport when the strategy gives none.
  static let defaultWidth = 1280
  static let defaultHeight = 720

  var page: WebPage
  var width: Int?
  var height: Int?
  var note: @Sendable (String) -> Void

  /// The viewport the page renders in, or why the strategy's size cannot be used.
  func viewport() throws(WebSnapshotError) -> Viewport {
    if let width, !(1...Bitmap.maximumSideForWeb).contains(width) {
      throw .invalidSize("The web image's width is \(width); it must be from 1 through 16384.")
    }
    if let height, !(1...Bitmap.maximumSideForWeb).contains(height) {
      throw .invalidSize("The web image's height is \(height); it must be from 1 through 16384.")
    }
    return Viewport(width: width ?? Self.defaultWidth, height: height ?? Self.defaultHeight)
  }

  /// Loads the page into `session`, whose viewport is set and whose blank document is loaded,
  /// and returns the temporary file it was written to (if any), which the caller removes once
  /// done.
  ///
  /// HTML text is written into the blank document (`document.write`), which parses it as a
  /// navigation would, without starting another renderer; SVG text is written to a file and
  /// navigated to, since it needs the XML parser.
  func load(into session: PageSession) async throws(WebSnapshotError) -> URL? {
    var temporaryFile: URL?
    do throws(WebSnapshotError) {
      switch page.source {
      case .html(let html, let baseURL):
        let text = baseURL.map { Self.insertingBase($0.absoluteURL, into: html) } ?? html
        session.forgetEvents()
        note("the HTML page to be parsed")
        _ = try await session.evaluate(PageScripts.replaceDocument(with: text))
        // The page's own `document.readyState` says "complete" at once here, before its style
        // sheets have arrived; the browser's `load` event waits for them.
        try await waitForLoad(session)
        try await settle(session)
      case .svg(let svg):
        let file = try Self.writeTemporary(svg, extension: "svg")
        temporaryFile = file
        try await navigate(session, to: file.absoluteString)
        try await waitForLoad(session)
        try await sizeToSVG(session)
        try await settle(session)
      case .url(let url):
        try await navigate(session, to: try Self.address(of: url))
        try await waitForLoad(session)
        if url.scheme?.lowercased().hasPrefix("http") == true {
          try await checkStatus(session, url: url)
        }
        try await settle(session)
      }
      return temporaryFile
    } catch {
      if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
      throw error
    }
  }

  private func waitForLoad(_ session: PageSession) async throws(WebSnapshotError) {
    note("the load event of \(displayAddress) (the page or something it loads)")
    try await session.waitForEvent("Page.loadEventFired")
  }

  private func settle(_ session: PageSession) async throws(WebSnapshotError) {
    note("the page to settle (document.fonts.ready, animations, two animation frames)")
    // A page of the headless shell draws only the frames issued to it.
    _ = try await session.withFrames { () throws(WebSnapshotError) -> JSONMessage in
      try await session.evaluate(PageScripts.settle)
    }
  }

  /// Starts the navigation to `address`; the caller waits for its `load` event.
  private func navigate(_ session: PageSession, to address: String) async throws(WebSnapshotError) {
    note("the response to \(displayAddress)")
    try await session.startNavigating(to: address, named: displayAddress)
  }

  private var displayAddress: String {
    switch page.source {
    case .html: return "the HTML page"
    case .svg: return "the SVG document"
    case .url(let url): return url.absoluteString
    }
  }

  /// The address to navigate to for `url`: a `file:` URL, or one of a loopback server.
  private static func address(of url: URL) throws(WebSnapshotError) -> String {
    guard let scheme = url.scheme?.lowercased() else { throw .unsupportedURL(url) }
    if scheme == "file" { return url.absoluteURL.absoluteString }
    guard scheme == "http" || scheme == "https", RequestPolicy.isLoopback(url.host) else {
      throw .unsupportedURL(url)
    }
    return url.absoluteString
  }

  private static func writeTemporary(
    _ text: String,
    extension: String
  ) throws(WebSnapshotError) -> URL {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("snapshot-testing-page-\(UUID().uuidString).\(`extension`)")
    do {
      try Data(text.utf8).write(to: file)
    } catch {
      throw .loadFailed(url: file.path, reason: "cannot write the page: \(error)")
    }
    return file
  }

  /// `html` with a `<base href>` for `baseURL`, after the doctype if there is one (before it, the
  /// page would render in quirks mode).
  static func insertingBase(_ baseURL: URL, into html: String) -> String {
    let escaped = baseURL.absoluteString
      .replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "\"", with: "&quot;")
    let tag = "<base href=\"\(escaped)\">"
    let trimmed = html.drop { $0.isWhitespace }
    if trimmed.lowercased().hasPrefix("<!doctype"), let end = trimmed.firstIndex(of: ">") {
      return String(trimmed[...end]) + tag + String(trimmed[trimmed.index(after: end)...])
    }
    return tag + html
  }

  private func checkStatus(_ session: PageSession, url: URL) async throws(WebSnapshotError) {
    let reply = try await session.evaluate(PageScripts.navigationStatus)
    guard let status = reply.message("result")?.int("value"), status >= 400 else { return }
    throw .httpStatus(
      url: url.absoluteString,
      status: status,
      text: Self.reasonPhrases[status] ?? ""
    )
  }

  /// The reason phrases of the error statuses a test server is likely to answer.
  static let reasonPhrases: [Int: String] = [
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
    418: "I'm a Teapot", 422: "Unprocessable Content", 429: "Too Many Requests",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout",
  ]

  /// Fails for a document that is not SVG; else, unless the strategy sets a size, makes the
  /// viewport the size of the `<svg>` element.
  private func sizeToSVG(_ session: PageSession) async throws(WebSnapshotError) {
    let reply = try await session.evaluate(PageScripts.svgCheck)
    guard let result = reply.evaluatedObject else {
      throw .malformedReply(method: "Runtime.evaluate", detail: "no result for the SVG check")
    }
    if let error = result.string("error") { throw .invalidSVG(error) }
    guard width == nil || height == nil else { return }
    let measuredWidth = Int((result.double("width") ?? 0).rounded(.up))
    let measuredHeight = Int((result.double("height") ?? 0).rounded(.up))
    guard measuredWidth > 0, measuredHeight > 0 else {
      throw .invalidSVG(
        "the <svg> element is \(measuredWidth)×\(measuredHeight) pixels; give it a width and a height"
      )
    }
    let size = Viewport(
      width: width ?? min(measuredWidth, Bitmap.maximumSideForWeb),
      height: height ?? min(measuredHeight, Bitmap.maximumSideForWeb)
    )
    try await session.send(size.command.0, size.command.1)
  }
}

extension Bitmap {
  /// The largest side a web snapshot may have (Chromium's own limit for a screenshot).
  static let maximumSideForWeb = 16384
}
