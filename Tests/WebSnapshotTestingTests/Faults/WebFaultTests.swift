import Foundation
import InlineSnapshotTesting
import RunRecord
import ImageSnapshotTesting
import SnapshotTesting
import Testing

@testable import WebSnapshotTesting

/// Bad input and faults, each with the real browser and, where a server is involved, a real
/// loopback server: a clear failure (nothing recorded) or a warning, never a crash or a pass.
@Suite(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
struct WebFaultTests {
  @Test func refusedConnectionFailsNamingTheURL() throws {
    let server = try LoopbackServer(routes: [:])
    let url = server.url("/gone")
    server.stop()
    let (_, failure, _) = WebTesting.snapshot(WebPage(url: url), as: .image)
    #expect(
      failure?.contains("The page \(url.absoluteString) did not load") == true,
      "\(failure ?? "")"
    )
    #expect(failure?.contains("ERR_CONNECTION_REFUSED") == true)
  }

  @Test(arguments: [(404, "Not Found"), (500, "Internal Server Error")])
  func errorStatusFailsNamingTheURLAndStatus(status: Int, text: String) throws {
    let server = try LoopbackServer(routes: [
      "/page": .respond(status: status, contentType: "text/html", body: "<h1>Oops</h1>")
    ])
    defer { server.stop() }
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let failure = folder.verify(WebPage(url: server.url("/page")), as: .image, record: .all)
    #expect(
      failure?.contains(
        "The page \(server.url("/page").absoluteString) answered HTTP \(status) \(text)"
      )
        == true,
      "\(failure ?? "passed")"
    )
    #expect(folder.recordedFiles.isEmpty)
  }

  @Test func missingFileFailsNamingIt() {
    let url = URL(fileURLWithPath: "/nonexistent/report.html")
    let (_, failure, _) = WebTesting.snapshot(WebPage(url: url), as: .image)
    #expect(
      failure?.contains("file:///nonexistent/report.html did not load") == true,
      "\(failure ?? "")"
    )
  }

  @Test func networkURLIsRefusedBeforeLoading() {
    let url = URL(string: "https://example.com/")!
    let (_, failure, _) = WebTesting.snapshot(WebPage(url: url), as: .image)
    #expect(failure?.contains("not https://example.com/") == true, "\(failure ?? "")")
  }

  @Test(arguments: [
    (
      Snapshotting<WebPage, Bitmap>.image(element: "##"),
      "The element selector \"##\" is not a valid CSS selector"
    ),
    (.image(masking: ["p", "p!"]), "The masking selector \"p!\" is not a valid CSS selector"),
    (.image(element: "#missing"), "The element selector \"#missing\" matches no element"),
    (.image(masking: [".nothing"]), "The masking selector \".nothing\" matches no element"),
    (
      .image(element: "#hidden"),
      "The element selector \"#hidden\" matches an element with no visible box"
    ),
    (.image(width: 0), "width is 0"),
  ])
  func badSelectorOrSizeFailsNamingIt(strategy: Snapshotting<WebPage, Bitmap>, message: String) {
    let page = WebPage(html: "<p>text</p><div id=hidden style=display:none></div>")
    let (_, failure, _) = WebTesting.snapshot(page, as: strategy)
    #expect(failure?.contains(message) == true, "\(failure ?? "passed")")
  }

  @Test func pageThatNeverAnswersTimesOutNamingWhatItWaitedFor() throws {
    let server = try LoopbackServer(routes: ["/slow": .hang])
    defer { server.stop() }
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let url = server.url("/slow")
    let failure = folder.verify(WebPage(url: url), as: .image, record: .all, timeout: 2)
    #expect(failure?.contains("Exceeded timeout of 2 seconds") == true, "\(failure ?? "passed")")
    #expect(
      failure?.contains("waiting for the response to \(url.absoluteString)") == true,
      "\(failure ?? "passed")"
    )
    #expect(folder.recordedFiles.isEmpty)
  }

  /// An inline snapshot of a page that never answers times out like a file snapshot, and gives
  /// its page back: more of them than pages may render at once (two per core) leave the next
  /// assertion free to render.
  @Test func inlineSnapshotsThatTimeOutGiveTheirPageBack() throws {
    let server = try LoopbackServer(routes: ["/slow": .hang])
    defer { server.stop() }
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let hanging = WebPage(url: server.url("/slow"))
    let count = 2 * ProcessInfo.processInfo.activeProcessorCount + 1
    let artifacts = folder.root.appendingPathComponent("artifacts").path
    RunEnvironment.withOverride(WebTesting.environment([.artifacts: artifacts])) {
      for _ in 0..<count {
        withKnownIssue {
          assertInlineSnapshot(
            of: hanging, as: .accessibilityTree, record: .never, timeout: 1, matches: { "- text" })
        } matching: { issue in
          issue.comments.contains { $0.rawValue.contains("Exceeded timeout of 1") }
        }
      }
    }
    #expect(folder.verify(WebTesting.solidPage("#0f0"), as: .image, record: .all, timeout: 20)?
      .contains("Recorded") == true)
  }

  @Test func pageThatNeverFinishesLoadingTimesOutNamingTheLoadEvent() throws {
    let server = try LoopbackServer(routes: [
      "/page": .respond(
        status: 200,
        contentType: "text/html",
        body: "<img src=\"/image.png\"><p>Hello</p>"
      ),
      "/image.png": .stall(contentType: "image/png", partialBody: "\u{89}PNG"),
    ])
    defer { server.stop() }
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let url = server.url("/page")
    let failure = folder.verify(WebPage(url: url), as: .accessibilityTree, record: .all, timeout: 3)
    #expect(
      failure?.contains("waiting for the load event of \(url.absoluteString)") == true,
      "\(failure ?? "passed")"
    )
  }

  @Test func htmlThatNeverFinishesLoadingTimesOutNamingTheLoadEvent() throws {
    let server = try LoopbackServer(routes: [
      "/image.png": .stall(contentType: "image/png", partialBody: "\u{89}PNG")
    ])
    defer { server.stop() }
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let page = WebPage(html: "<img src=\"image.png\"><p>Hello</p>", baseURL: server.url("/"))
    let failure = folder.verify(page, as: .image, record: .all, timeout: 3)
    #expect(
      failure?.contains("waiting for the load event of the HTML page") == true,
      "\(failure ?? "passed")"
    )
    #expect(folder.recordedFiles.isEmpty)
  }

  /// A page whose renderer is busy once its snapshot is taken does not hold the snapshot up:
  /// whether its context may serve again is found out afterwards, with a deadline of its own.
  /// (Found out first, the snapshot waited for the busy renderer until the assertion gave up.)
  @Test func aPageBusyAfterItsSnapshotDoesNotHoldItUp() throws {
    let strategy = SimplySnapshotting<String>.lines.asyncPullback { (page: WebPage) in
      WebRendering.snapshot(of: page, width: 10, height: 10, placeholder: { "" }) {
        session throws(WebSnapshotError) in
        // Twenty seconds of a busy main thread, starting as the snapshot is handed on (the page
        // is closed with its context after the 5 seconds of the reuse check's deadline).
        let reply = try await session.evaluate(
          "setTimeout(() => { const end = Date.now() + 20000; while (Date.now() < end) {} }, 0);"
            + " document.title"
        )
        return reply.message("result")?.string("value") ?? ""
      }
    }
    let started = Date()
    let (value, failure, _) = WebTesting.snapshot(
      WebPage(html: "<title>busy</title>"),
      as: strategy,
      timeout: 10
    )
    #expect(failure == nil, "\(failure ?? "")")
    #expect(value == "busy")
    #expect(Date().timeIntervalSince(started) < 8)
  }

  @Test func scriptErrorIsAWarning() throws {
    let page = WebPage(html: "<body style=\"margin:0\"><script>notAFunction();</script></body>")
    let (bitmap, failure, warnings) = WebTesting.snapshot(page, as: .image(width: 10, height: 10))
    #expect(failure == nil)
    #expect(bitmap?.width == 10)
    #expect(
      warnings.contains {
        $0.contains(
          "A script of the web page threw while it loaded: ReferenceError: notAFunction is not defined"
        )
      },
      "\(warnings)"
    )
  }

  @Test func requestOffTheMachineIsBlockedWithAWarning() throws {
    let page = WebPage(
      html:
        "<img src=\"https://example.com/logo.png\"><link rel=stylesheet href=\"http://fonts.example.org/a.css\">"
    )
    let (_, failure, warnings) = WebTesting.snapshot(page, as: .image(width: 10, height: 10))
    #expect(failure == nil)
    #expect(
      warnings.contains {
        $0.contains("requested https://example.com/logo.png, which was blocked")
      },
      "\(warnings)"
    )
    #expect(warnings.contains { $0.contains("http://fonts.example.org/a.css") })
  }

  @Test func svgThatDoesNotParseFailsWithTheParsersMessage() {
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let broken = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect></svg>"
    let failure = folder.verify(WebPage(svg: broken), as: .image, record: .all)
    #expect(failure?.contains("The SVG does not parse:") == true, "\(failure ?? "passed")")
    #expect(failure?.contains("line 1") == true, "\(failure ?? "passed")")
    #expect(folder.recordedFiles.isEmpty)

    let (_, notSVG, _) = WebTesting.snapshot(
      WebPage(svg: "<html xmlns=\"http://www.w3.org/1999/xhtml\"/>"),
      as: .image
    )
    #expect(notSVG?.contains("not an SVG <svg> element") == true, "\(notSVG ?? "passed")")
  }

  @Test func requestPolicyAllowsOnlyLoopbackFileAndData() {
    for allowed in [
      "http://127.0.0.1:8080/a", "http://localhost/", "https://[::1]:9/", "file:///tmp/x",
      "data:text/plain,hi", "http://127.1.2.3/", "about:blank", "http://[::ffff:127.0.0.1]:80/",
      "http://[::ffff:7f00:1]/", "http://app.localhost:8/", "ws://localhost./", "http://[0:0::1]/",
    ] {
      #expect(RequestPolicy.allows(allowed), "\(allowed)")
    }
    for blocked in [
      "https://example.com/", "http://10.0.0.1/", "http://127.0.0.1.example.com/",
      "ftp://127.0.0.1/", "ws://example.com/", "not a url", "http://evil.test/",
      "http://[::ffff:10.0.0.1]/", "http://[::2]/", "http://localhost.evil.test/",
      "http://127.0.0/", "http://[::127.0.0.1]/",
    ] {
      #expect(!RequestPolicy.allows(blocked), "\(blocked)")
    }
  }
}
