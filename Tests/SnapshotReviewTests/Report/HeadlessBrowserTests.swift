import Foundation
import Testing

@testable import SnapshotReview

/// Opens the report in a real browser: the page must load without script errors, hold one entry
/// per failure, and a screenshot of it is kept in the artifacts folder for a person to look at.
///
/// Skipped when Chromium is not installed, since tests never install anything; CI installs it
/// first with `scripts/require-system-packages.sh --with-chromium`, so the tests run there.
@Suite(
  .serialized,
  .enabled(
    if: HeadlessChromium.testsRun,
    "Chromium is not installed; install it with `scripts/require-system-packages.sh --with-chromium`"
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
