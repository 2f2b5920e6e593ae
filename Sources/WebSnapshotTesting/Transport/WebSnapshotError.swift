import Foundation

/// Why a web snapshot could not be taken; each case reads as the failure a user sees.
enum WebSnapshotError: Error, CustomStringConvertible, Equatable {
  /// No executable found in `SNAPSHOT_TESTING_CHROMIUM` or on `PATH`.
  case browserNotFound(variableValue: String?)
  /// The executable could not be started.
  case browserDidNotStart(path: String, reason: String)
  /// The browser process went away (crashed or was killed) while the snapshot was taken.
  case browserExited(String)
  /// The page's renderer crashed.
  case pageCrashed(String)
  /// The browser refused a command.
  case protocolError(method: String, message: String)
  /// The browser sent something the package cannot read.
  case malformedReply(method: String, detail: String)
  /// `WebPage(url:)` with a URL the browser may not load.
  case unsupportedURL(URL)
  /// The page did not load at all.
  case loadFailed(url: String, reason: String)
  /// The server answered with an error status.
  case httpStatus(url: String, status: Int, text: String)
  /// A selector the browser cannot parse.
  case invalidSelector(parameter: String, selector: String, message: String)
  /// A selector that matches nothing on the page.
  case noMatch(parameter: String, selector: String)
  /// The element matched, but has no box to screenshot.
  case emptyElement(selector: String)
  /// The SVG text is not a well-formed SVG document.
  case invalidSVG(String)
  /// A size out of range.
  case invalidSize(String)
  /// The screenshot's PNG could not be decoded.
  case screenshotUnreadable(String)
  /// The assertion stopped waiting.
  case abandoned
  /// The headless shell did not produce a frame the snapshot asked for in time.
  case frameNotProduced(seconds: Double)
  /// The page's main frame started to navigate away from the document it was given.
  case navigatedAway(target: String)
  /// The page opened a JavaScript dialog (`alert`, `confirm`, `prompt`, `beforeunload`).
  case dialogOpened(kind: String, message: String)
  /// The page opened a window that can reach it (`window.open` without `noopener`).
  case popupWithOpener(url: String)
  /// The page's accessibility tree is nested deeper than the snapshot writes.
  case accessibilityTreeTooDeep(maximumDepth: Int)

  var description: String {
    switch self {
    case .browserNotFound(let value):
      let tried =
        value.map {
          "SNAPSHOT_TESTING_CHROMIUM is \"\($0)\", which is not an executable file"
        }
        ?? "SNAPSHOT_TESTING_CHROMIUM is not set"
      return """
        No Chromium to render the web page: \(tried), and none of \
        \(BrowserExecutable.names.joined(separator: ", ")) is on PATH. Install it (Debian and \
        Ubuntu: `apt-get install chromium-headless-shell`, or `apt-get install chromium`) or set \
        SNAPSHOT_TESTING_CHROMIUM to its executable.
        """
    case .browserDidNotStart(let path, let reason):
      return "Could not start the browser \(path): \(reason)."
    case .browserExited(let reason):
      return """
        The browser exited while taking the web snapshot (\(reason)); it crashed or was killed. \
        The next web snapshot starts a new one.
        """
    case .pageCrashed(let reason):
      return "The browser's page crashed while taking the web snapshot (\(reason))."
    case .protocolError(let method, let message):
      return "The browser refused \(method): \(message)."
    case .malformedReply(let method, let detail):
      return "The browser's reply to \(method) could not be read: \(detail)."
    case .unsupportedURL(let url):
      return """
        WebPage(url:) loads only http: and https: URLs of a loopback server (127.0.0.1, ::1, \
        localhost) and file: URLs, not \(url.absoluteString): a test must not depend on the \
        network.
        """
    case .loadFailed(let url, let reason):
      return "The page \(url) did not load: \(reason)."
    case .httpStatus(let url, let status, let text):
      let suffix = text.isEmpty ? "" : " \(text)"
      return "The page \(url) answered HTTP \(status)\(suffix), not a page to snapshot."
    case .invalidSelector(let parameter, let selector, let message):
      return "The \(parameter) selector \"\(selector)\" is not a valid CSS selector: \(message)"
    case .noMatch(let parameter, let selector):
      return "The \(parameter) selector \"\(selector)\" matches no element of the page."
    case .emptyElement(let selector):
      return """
        The element selector "\(selector)" matches an element with no visible box (0 width or \
        height, or display: none), so there is nothing to screenshot.
        """
    case .invalidSVG(let message):
      return "The SVG does not parse: \(message)"
    case .invalidSize(let message):
      return message
    case .screenshotUnreadable(let reason):
      return "The browser's screenshot is not a readable PNG: \(reason)."
    case .abandoned:
      return "The assertion stopped waiting for the web snapshot."
    case .frameNotProduced(let seconds):
      let span = seconds == 1 ? "1 second" : "\(String(format: "%g", seconds)) seconds"
      return """
        The headless shell did not produce the frame the web snapshot asked for \
        (HeadlessExperimental.beginFrame) within \(span). Set SNAPSHOT_TESTING_CHROMIUM to \
        chromium to render with the browser's own frames.
        """
    case .navigatedAway(let target):
      return """
        The web page navigated itself to \(target), away from the document it was given; a \
        snapshot shows only that document, so that a page can never put another page or a \
        local file into a reference.
        """
    case .dialogOpened(let kind, let message):
      return """
        The web page opened a JavaScript \(kind) dialog ("\(message)"), which was closed at \
        once: a snapshot cannot answer dialogs, so a page under test must not open one.
        """
    case .accessibilityTreeTooDeep(let maximumDepth):
      return """
        The page's accessibility tree is nested more than \(maximumDepth) levels deep, deeper \
        than .accessibilityTree writes. Snapshot a part of the page, or a page less deeply \
        nested.
        """
    case .popupWithOpener(let url):
      return """
        The web page opened a popup window at \(url) that can reach it through \
        `window.opener`, and the popup was closed: a snapshot's page may open windows only \
        with `noopener` (whose requests are blocked like the page's own), or stub `window.open`.
        """
    }
  }
}
