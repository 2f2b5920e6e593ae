import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Debian's Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// commands on file descriptor 3, answers on 4, each a JSON object ended by a NUL byte), so a
/// test can open a page, click its buttons with real mouse events and read its DOM.
final class DevToolsBrowser {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private var process: pid_t = 0
  private let commands: Int32
  private let answers: Int32
  private let profile: URL
  private var buffer: [UInt8] = []
  private var nextID = 0
  private var session: String?

  init() throws {
    guard let executable = HeadlessChromium.executable else { throw HeadlessChromium.Unavailable() }
    profile = FileManager.default.temporaryDirectory
      .appendingPathComponent("chromium-devtools-\(UUID().uuidString)")
    var toBrowser: [Int32] = [0, 0]
    var fromBrowser: [Int32] = [0, 0]
    guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
      throw Failure(description: "pipe() failed: \(errno)")
    }
    // Above 4, so that placing the child's ends on 3 and 4 never overwrites one of them.
    func high(_ descriptor: Int32) -> Int32 {
      let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
      close(descriptor)
      return moved
    }
    let childReads = high(toBrowser[0])
    let childWrites = high(fromBrowser[1])
    commands = high(toBrowser[1])
    answers = high(fromBrowser[0])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, childReads, 3)
    posix_spawn_file_actions_adddup2(&actions, childWrites, 4)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = [
      executable.path, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
      "--disable-extensions", "--disable-dev-shm-usage", "--remote-debugging-pipe",
      "--user-data-dir=\(profile.path)", "--window-size=1280,1600", "about:blank",
    ]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let status = posix_spawn(&process, executable.path, &actions, nil, &argv, environ)
    close(childReads)
    close(childWrites)
    guard status == 0 else { throw Failure(description: "posix_spawn failed: \(status)") }
  }

  deinit {
    close(commands)
    close(answers)
    if process > 0 {
      kill(process, SIGKILL)
      var status: Int32 = 0
      waitpid(process, &status, 0)
    }
    try? FileManager.default.removeItem(at: profile)
  }

  /// Sends a command and returns its `result`, skipping events; throws on an error answer.
  @discardableResult
  func send(
    _ method: String,
    _ parameters: [String: Any] = [:],
    toPage: Bool = true,
    timeout: TimeInterval = 20
  ) throws -> [String: Any] {
    nextID += 1
    var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
    if toPage, let session { message["sessionId"] = session }
    var data = try JSONSerialization.data(withJSONObject: message)
    data.append(0)
    try data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(commands, bytes.baseAddress! + offset, bytes.count - offset)
        guard written > 0 else { throw Failure(description: "writing to Chromium failed") }
        offset += written
      }
    }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let answer = try readMessage(until: deadline)
      guard answer["id"] as? Int == nextID else { continue }
      if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
      return answer["result"] as? [String: Any] ?? [:]
    }
  }

  private func readMessage(until deadline: Date) throws -> [String: Any] {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let message = Array(buffer[..<end])
        buffer.removeFirst(end + 1)
        return (try JSONSerialization.jsonObject(with: Data(message))) as? [String: Any] ?? [:]
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw Failure(description: "Chromium did not answer in time") }
      var descriptor = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, Int32(min(remaining, 1) * 1000)) >= 0 else { continue }
      guard descriptor.revents != 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = read(answers, &chunk, chunk.count)
      guard count > 0 else { throw Failure(description: "Chromium closed its pipe") }
      buffer += chunk[..<count]
    }
  }

  /// Opens `url` in a new page, which later commands address.
  func open(_ url: String) throws {
    let target = try send("Target.createTarget", ["url": url], toPage: false)
    guard let targetID = target["targetId"] as? String else {
      throw Failure(description: "no target for \(url)")
    }
    let attached = try send(
      "Target.attachToTarget",
      ["targetId": targetID, "flatten": true],
      toPage: false
    )
    session = attached["sessionId"] as? String
  }

  /// The value of `expression` in the page (a promise is awaited).
  func evaluate(_ expression: String) throws -> Any? {
    let result = try send(
      "Runtime.evaluate",
      ["expression": expression, "awaitPromise": true, "returnByValue": true]
    )
    if let exception = result["exceptionDetails"] {
      throw Failure(description: "\(expression): \(exception)")
    }
    return (result["result"] as? [String: Any])?["value"]
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

  /// `text` as a JavaScript string literal.
  static func quoted(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }
}
