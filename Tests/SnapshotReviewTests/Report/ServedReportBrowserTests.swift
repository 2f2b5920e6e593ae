import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// The served report in real headless Chromium, clicked with the mouse over the DevTools
/// protocol: Accept changes the reference, Reject removes the record, the page updates in
/// place, and the page's own requests without the token are refused.
///
/// Skipped when Chromium is not installed, like ``HeadlessBrowserTests``.
@Suite(
  .serialized,
  .enabled(
    if: HeadlessChromium.testsRun,
    "Chromium is not installed; install it with `scripts/require-system-packages.sh --with-chromium`"
  )
)
struct ServedReportBrowserTests {
  static func recordID(_ fixture: ReviewFixture, reference name: String) throws -> String {
    let pending = PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: fixture.root)
    let failure = pending.failures.first { $0.referenceURL?.lastPathComponent == name }
    return try #require(failure).recordURL.path
  }

  /// An expression that is true when the entry `id` is in `state`.
  static func state(of id: String, is state: String) -> String {
    "document.querySelector(\(DevToolsBrowser.quoted(entry(id)))).dataset.state === '\(state)'"
  }

  static func entry(_ id: String) -> String {
    "article[data-id=\(DevToolsBrowser.quoted(id))]"
  }

  @Test func acceptAndRejectFromThePageInAHeadlessBrowser() throws {
    try ReviewFixture.with { fixture in
      let served = try ServedProcess(
        in: fixture.root,
        arguments: ["--artifacts", fixture.artifacts.path]
      )
      let port = served.port
      let greeting = try Self.recordID(fixture, reference: ReviewFixture.greeting)
      let farewell = try Self.recordID(fixture, reference: ReviewFixture.farewell)
      let fresh = try Self.recordID(fixture, reference: ReviewFixture.fresh)
      let screenshot = HeadlessBrowserTests.keptFolder.appendingPathComponent("served-report.png")
      let browser = try DevToolsBrowser()
      try browser.open("http://127.0.0.1:\(port)/")
      try browser.wait(for: "document.documentElement.dataset.served === 'ready'")
      #expect(
        try browser.evaluate("document.documentElement.dataset.status") as? String == "ready"
      )
      #expect(try browser.evaluate("document.querySelectorAll('.entry').length") as? Int == 4)

      // Accept: the reference takes the new snapshot, the entry says so in place.
      try browser.click(Self.entry(greeting) + " button[data-decision=accept]")
      try browser.wait(
        for:
          Self.state(of: greeting, is: "accepted")
      )
      #expect(
        contents(of: fixture.reference(ReviewFixture.greeting))
          == Data("Hello\nthere\n".utf8)
      )
      #expect(!FileManager.default.fileExists(atPath: greeting))
      let outcome = try browser.evaluate(
        "document.querySelector(\(DevToolsBrowser.quoted(Self.entry(greeting) + " .outcome"))).textContent"
      )
      #expect((outcome as? String)?.hasPrefix("Accepted Tests/AppTests/") == true)
      #expect(
        try browser.evaluate("document.querySelector('h1').textContent") as? String
          == "3 pending snapshot failures"
      )

      // Reject: the record goes, the reference stays.
      try browser.click(Self.entry(farewell) + " button[data-decision=reject]")
      try browser.wait(
        for:
          Self.state(of: farewell, is: "rejected")
      )
      #expect(!FileManager.default.fileExists(atPath: farewell))
      #expect(
        contents(of: fixture.reference(ReviewFixture.farewell))
          == Data("Goodbye\nfor now\n".utf8)
      )

      // The page's own request without the token: 403, nothing written.
      let status = try browser.evaluate(
        """
        fetch('/api/resolve', {method: 'POST', headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({decision: 'accept', ids: [\(DevToolsBrowser.quoted(fresh))]})
        }).then(function (response) { return response.status; })
        """
      )
      #expect(status as? Int == 403)
      #expect(FileManager.default.fileExists(atPath: fresh))
      #expect(
        !FileManager.default.fileExists(atPath: fixture.reference(ReviewFixture.fresh).path)
      )
      let outside = try browser.evaluate(
        "fetch('/file?path=' + encodeURIComponent('/etc/passwd'))"
          + ".then(function (r) { return r.status; })"
      )
      #expect(outside as? Int == 403)

      try? FileManager.default.createDirectory(
        at: HeadlessBrowserTests.keptFolder,
        withIntermediateDirectories: true
      )
      _ = try browser.evaluate("window.scrollTo(0, 0)")
      try browser.screenshot(to: screenshot)

      // A new test run: the page reloads its list by itself.
      _ = fixture.verify("Hello\nagain\n", as: .lines, testName: "testGreeting()")
      try browser.wait(
        for:
          "document.querySelectorAll('.entry').length === 3"
          + " && !document.querySelector('[data-state]')"
      )

      // Accept all shown: every entry is accepted in one request.
      try browser.click("#accept-all")
      try browser.wait(
        for: "Array.prototype.every.call(document.querySelectorAll('.entry'),"
          + " function (entry) { return entry.dataset.state === 'accepted'; })"
      )
      #expect(
        try browser.evaluate("document.querySelector('h1').textContent") as? String
          == "No pending snapshot failures"
      )
      #expect(
        contents(of: fixture.reference(ReviewFixture.fresh))
          == Data("brand new\nsnapshot\n".utf8)
      )

      // The artifacts folder deleted while serving: the page says so.
      try FileManager.default.removeItem(at: fixture.artifacts)
      try browser.wait(for: "document.documentElement.dataset.artifacts === 'missing'")
      let gone = try browser.evaluate("document.getElementById('artifacts-gone').textContent")
      #expect((gone as? String)?.contains("no longer exists") == true)
      #expect(served.interrupt() == 0)
      print("Served report screenshot: \(screenshot.path)")
    }
  }
}
