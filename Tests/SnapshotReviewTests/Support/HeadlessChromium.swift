import Foundation

/// Debian's Chromium, if it is on the PATH. Tests only look for it: installing it is
/// `scripts/require-system-packages.sh --with-chromium`'s job, never a test's.
enum HeadlessChromium {
  /// The browser's path, or `nil` when it is not installed.
  static let executable: URL? = onPath()

  /// Whether the browser suites run: with a browser, and always on CI (`CI` set), where a
  /// missing browser fails them with ``Unavailable``'s message instead of skipping them.
  static let testsRun =
    executable != nil || ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } == true

  struct Unavailable: Error, CustomStringConvertible {
    var description: String {
      "Chromium is not installed: run `scripts/require-system-packages.sh --with-chromium`."
    }
  }

  private static func onPath() -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    let folders = path.split(separator: ":").map(String.init) + ["/usr/bin"]
    for folder in folders {
      for name in ["chromium", "chromium-browser"] {
        let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      }
    }
    return nil
  }

  /// Runs the browser headless on `page` with `arguments`; returns standard output. Stops it
  /// after `timeout` seconds.
  static func run(_ arguments: [String], page: URL, timeout: TimeInterval = 40) throws -> String {
    guard let executable else { throw Unavailable() }
    let profile = FileManager.default.temporaryDirectory
      .appendingPathComponent("chromium-profile-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: profile) }
    let process = Process()
    process.executableURL = executable
    process.arguments =
      [
        "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
        "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)",
      ] + arguments + [page.absoluteString]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return String(decoding: data, as: UTF8.self)
  }
}
