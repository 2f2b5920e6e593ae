import Foundation
import Testing

@testable import SnapshotReview

/// Debian's Chromium, found on the PATH or installed with apt-get when running as root.
enum HeadlessChromium {
  /// The browser's path, or why there is none.
  static let located: Result<URL, Unavailable> = locate()

  struct Unavailable: Error, CustomStringConvertible {
    var description: String
  }

  static var executable: URL? { try? located.get() }

  private static func locate() -> Result<URL, Unavailable> {
    if let found = onPath() { return .success(found) }
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") else {
      return report(
        "Chromium is not installed and this is not root, so it cannot be installed: skipping the "
          + "headless-browser check of the HTML report. Install it with `sudo apt-get install chromium`."
      )
    }
    FileHandle.standardError.write(Data("Installing chromium for the HTML report check…\n".utf8))
    let installed = shell(
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"
    )
    if let found = onPath() { return .success(found) }
    return report(
      "Chromium could not be installed (apt-get said: \(installed.suffix(300))): skipping the "
        + "headless-browser check of the HTML report."
    )
  }

  private static func report(_ reason: String) -> Result<URL, Unavailable> {
    FileHandle.standardError.write(Data("\(reason)\n".utf8))
    return .failure(Unavailable(description: reason))
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

  @discardableResult
  private static func shell(_ command: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command + " 2>&1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "could not start /bin/sh" }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
  }

  /// Runs the browser headless on `page` with `arguments`; returns standard output. Stops it
  /// after `timeout` seconds.
  static func run(_ arguments: [String], page: URL, timeout: TimeInterval = 40) throws -> String {
    let executable = try located.get()
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

/// Opens the report in a real browser: the page must load without script errors, hold one entry
/// per failure, and a screenshot of it is kept in the artifacts folder for a person to look at.
@Suite(
  .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil,
    "Chromium is not installed and could not be installed (see the message above)"
  )
)
struct HeadlessBrowserTests {
  /// Where the screenshot and the page are kept after the test: `SNAPSHOT_ARTIFACTS`, or the
  /// temporary folder.
  static let keptFolder: URL = {
    let root =
      ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0)
      } ?? FileManager.default.temporaryDirectory
    return root.appendingPathComponent("SnapshotReviewTests", isDirectory: true)
  }()

  @Test func reportLoadsWithoutErrorsAndShowsEveryFailure() throws {
    try ReviewFixture.with { fixture in
      try FileManager.default.createDirectory(
        at: Self.keptFolder,
        withIntermediateDirectories: true
      )
      let page = Self.keptFolder.appendingPathComponent("snapshot-report.html")
      try Data(HTMLReportTests.render(fixture).utf8).write(to: page)

      let dom = try HeadlessChromium.run(["--dump-dom"], page: page)
      #expect(
        dom.contains("data-status=\"ready\""),
        "the page's script did not finish:\n\(dom.prefix(400))"
      )
      #expect(!dom.contains("data-status=\"error\""))
      #expect(dom.contains("data-entries=\"4\""))
      #expect(dom.components(separatedBy: "<article class=\"entry\"").count - 1 == 4)
      #expect(dom.contains("<pre id=\"script-errors\" hidden=\"\"></pre>"))
      // The swipe and onion-skin controls were wired up by the script.
      #expect(dom.contains("clip-path: inset(0px 0px 0px 50%)"))
      #expect(dom.contains("opacity: 0.5"))

      let screenshot = Self.keptFolder.appendingPathComponent("snapshot-report.png")
      try? FileManager.default.removeItem(at: screenshot)
      _ = try HeadlessChromium.run(
        ["--screenshot=\(screenshot.path)", "--window-size=1280,2400", "--hide-scrollbars"],
        page: page
      )
      let image = try #require(contents(of: screenshot), "no screenshot at \(screenshot.path)")
      let size = try #require(PNGSize(image))
      #expect(size.width == 1280)
      print("HTML report screenshot: \(screenshot.path)")
    }
  }

  @Test func aScriptErrorIsVisibleInTheDOM() throws {
    try ReviewFixture.with { fixture in
      let page = fixture.artifacts.appendingPathComponent("broken-report.html")
      let html = HTMLReportTests.render(fixture)
        .replacingOccurrences(of: "</main>", with: "</main>\n<script>notAFunction();</script>")
      try fixture.write(Data(html.utf8), to: page)
      let dom = try HeadlessChromium.run(["--dump-dom"], page: page)
      #expect(dom.contains("data-status=\"error\""))
      #expect(dom.contains("notAFunction is not defined"))
    }
  }
}
