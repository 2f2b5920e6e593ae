import Foundation
import RunRecord
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

  /// A fresh browser's first page is made while its snapshot waits, and nothing else is made
  /// beside it: a page made ahead would compete with it for the browser's main thread (with
  /// `chromium`, a window of its own). The next page is made once the first closes, and from
  /// then on while each snapshot renders.
  @Test func theFirstPageOfABrowserIsMadeAlone() async throws {
    let shared = SharedBrowser()
    let viewport = Viewport(width: 320, height: 240)
    do {
      try await RunEnvironment.withOverride(WebTesting.environment()) {
        let first = try await shared.newPage(viewport: viewport)
        #expect(await !shared.hasPageAhead, "a page was made ahead beside the first")
        // The browser holds the first page's context and nothing more, however long it waits.
        try await Task.sleep(nanoseconds: 500_000_000)
        let reply = try await first.connection.send("Target.getBrowserContexts")
        let contexts = reply["browserContextIds"] as? [String] ?? []
        #expect(contexts == [first.contextIdentifier], "\(contexts)")
        await shared.close(first, reusable: false)
        #expect(await shared.hasPageAhead, "no page was made once the first closed")

        // The second page was made ahead, so the third is made while the second renders.
        let second = try await shared.newPage(viewport: viewport)
        #expect(second.contextIdentifier != first.contextIdentifier)
        #expect(await shared.hasPageAhead, "no page is made ahead while the second renders")
        await shared.close(second, reusable: false)
      }
    } catch {
      await shared.stop()
      throw error
    }
    await shared.stop()
  }
}

