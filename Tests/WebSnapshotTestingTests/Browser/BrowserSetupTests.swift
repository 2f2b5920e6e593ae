import Foundation
import Testing

@testable import WebSnapshotTesting

/// How the shared browser is set up for snapshots.
@Suite(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
struct BrowserSetupTests {
  /// A snapshot's browser context holds its page and nothing else. Chromium would otherwise open
  /// a first tab, and preload the address bar's pop-up for every context in a renderer of its
  /// own, which costs the browser more than the page does.
  @Test func theBrowserHoldsOnlyThePagesOfSnapshots() async throws {
    _ = try WebTesting.render(WebTesting.solidPage("#fff"), as: .image(width: 10, height: 10))
    let browser = try await SharedBrowser.shared.browser()
    let reply = try await browser.connection.send("Target.getTargets")
    let targets = reply.messages("targetInfos").map {
      (type: $0.string("type") ?? "", url: $0.string("url") ?? "")
    }
    #expect(!targets.isEmpty)
    let browserOwn = targets.filter { $0.type == "browser_ui" || $0.url.hasPrefix("chrome://") }
    #expect(browserOwn.isEmpty, "\(browserOwn)")
  }
}

