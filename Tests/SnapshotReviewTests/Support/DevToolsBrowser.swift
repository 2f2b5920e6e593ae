import Foundation

@testable import WebSnapshotTesting

/// A page of the web module's own browser (`SharedBrowser`, a `PageSession` in a browser context
/// of its own, driven over its DevTools connection), so a test can open a page, click its
/// buttons with real mouse events and read its DOM. Every call blocks until the browser answers,
/// at most `timeout` seconds.
final class DevToolsBrowser {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let session: PageSession

  init() throws {
    session = try Self.blocking(page: nil, timeout: 60) {
      try await SharedBrowser.shared.newPage(viewport: Viewport(width: 1280, height: 1600))
    }
  }

  deinit {
    session.close()
  }

  /// Sends a command to the page and returns its `result`; throws on an error answer.
  @discardableResult
  func send(
    _ method: String,
    _ parameters: [String: Any] = [:],
    timeout: TimeInterval = 20
  ) throws -> [String: Any] {
    let session = session
    let parameters = JSONMessage(parameters)
    return try Self.blocking(page: session, timeout: timeout) {
      try await Self.withFrames(session) { () async throws(WebSnapshotError) in
        try await session.send(method, parameters.object)
      }
    }.object
  }

  /// Opens `url` in the page and waits for its `load` event.
  func open(_ url: String) throws {
    let session = session
    try Self.blocking(page: session, timeout: 20) {
      try await Self.withFrames(session) { () async throws(WebSnapshotError) in
        try await session.navigate(to: url)
      }
    }
  }

  /// The value of `expression` in the page (a promise is awaited).
  func evaluate(_ expression: String) throws -> Any? {
    let session = session
    let reply = try Self.blocking(page: session, timeout: 20) {
      try await Self.withFrames(session) { () async throws(WebSnapshotError) in
        try await session.evaluate(expression)
      }
    }
    return reply.message("result")?["value"]
  }

  /// Waits until `condition` (an expression) is true in the page.
  func wait(for condition: String, timeout: TimeInterval = 15) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if (try? evaluate("Boolean(\(condition))")) as? Bool == true { return }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw Failure(description: "timed out waiting for \(condition)")
  }

  /// Clicks the element `selector` finds with the mouse, in its middle, as a person would.
  func click(_ selector: String) throws {
    let found = try evaluate(
      """
      (function () {
        var element = document.querySelector(\(Self.quoted(selector)));
        if (!element) { return null; }
        element.scrollIntoView({block: 'center'});
        var box = element.getBoundingClientRect();
        return [box.left + box.width / 2, box.top + box.height / 2];
      })()
      """
    )
    guard let point = found as? [Double], point.count == 2 else {
      throw Failure(description: "nothing to click at \(selector)")
    }
    for type in ["mousePressed", "mouseReleased"] {
      try send(
        "Input.dispatchMouseEvent",
        ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1]
      )
    }
  }

  /// Saves a PNG of the page.
  func screenshot(to url: URL) throws {
    let result = try send("Page.captureScreenshot", ["format": "png"])
    guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else {
      throw Failure(description: "no screenshot")
    }
    try data.write(to: url)
  }

  /// `text` as a JSON string, which is also a JavaScript string literal.
  static func quoted(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  /// `operation` with frames issued meanwhile when the page draws only on demand (the headless
  /// shell's frames on demand): its input events, loads and timers wait for frames.
  private static func withFrames<Value>(
    _ session: PageSession,
    _ operation: () async throws(WebSnapshotError) -> Value
  ) async throws(WebSnapshotError) -> Value {
    guard let frames = session.frames else { return try await operation() }
    return try await frames.drive(session, while: operation)
  }

  /// Runs `operation` on the web module's executor and waits for it; after `timeout` seconds
  /// `page` (if any) is failed, so that nothing is left waiting on it.
  private static func blocking<Value: Sendable>(
    page: PageSession?,
    timeout: TimeInterval,
    _ operation: @escaping @Sendable () async throws -> Value
  ) throws -> Value {
    let outcome = Outcome<Value>()
    let done = DispatchSemaphore(value: 0)
    startOnWebExecutor {
      do {
        outcome.set(.success(try await operation()))
      } catch {
        outcome.set(.failure(error))
      }
      done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success else {
      page?.fail(.abandoned)
      throw Failure(description: "the browser did not answer within \(timeout) seconds")
    }
    guard let result = outcome.get() else { throw Failure(description: "no outcome") }
    return try result.get()
  }

  private final class Outcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) { lock.withLock { self.result = result } }
    func get() -> Result<Value, any Error>? { lock.withLock { result } }
  }
}
