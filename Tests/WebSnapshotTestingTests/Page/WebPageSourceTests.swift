import Foundation
import ImageSnapshotTesting
import SnapshotTesting
import Testing

@testable import WebSnapshotTesting

/// The four sources of a `WebPage`, rendered by the real Chromium. Pages are solid colour blocks,
/// so the pixels checked do not depend on the fonts installed.
@Suite(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
struct WebPageSourceTests {
  static let blue = RGBA(red: 0, green: 128, blue: 255)
  static let red = RGBA(red: 255, green: 0, blue: 0)
  static let green = RGBA(red: 0, green: 255, blue: 0)

  @Test func htmlRendersAtTheDefaultViewportAtScaleOne() throws {
    let bitmap = try WebTesting.render(WebTesting.solidPage("rgb(0,128,255)"))
    #expect(bitmap.width == 1280)
    #expect(bitmap.height == 720)
    #expect(bitmap.pixel(x: 0, y: 0) == Self.blue)
    #expect(bitmap.pixel(x: 1279, y: 719) == Self.blue)
  }

  @Test func htmlWithAFileBaseURLLoadsItsRelativeFiles() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("web-base-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("body { margin: 0; background: rgb(255, 0, 0); }".utf8)
      .write(to: folder.appendingPathComponent("style.css"))

    let html = "<!doctype html><link rel=stylesheet href=\"style.css\"><body></body>"
    let withBase = try WebTesting.render(WebPage(html: html, baseURL: folder))
    #expect(withBase.pixel(x: 10, y: 10) == Self.red)
    // Without a base URL the style sheet does not resolve: the page stays white.
    let withoutBase = try WebTesting.render(WebPage(html: html))
    #expect(withoutBase.pixel(x: 10, y: 10) == .white)
  }

  /// HTML is written into a blank document rather than navigated to; its doctype still decides
  /// the rendering mode, and its scripts still run.
  @Test func htmlKeepsTheRenderingModeItsDoctypeGives() throws {
    let script = """
      <body style="margin:0"><script>
      document.body.style.background = document.compatMode === 'CSS1Compat' ? '#0080ff' : '#ff0000';
      </script></body>
      """
    let standards = try WebTesting.render(
      WebPage(html: "<!doctype html>" + script),
      as: .image(width: 10, height: 10)
    )
    #expect(standards.pixel(x: 5, y: 5) == Self.blue)
    let quirks = try WebTesting.render(WebPage(html: script), as: .image(width: 10, height: 10))
    #expect(quirks.pixel(x: 5, y: 5) == Self.red)
  }

  /// The page settles once what it loads has arrived: an animation in a style sheet that comes
  /// half a second late is fast-forwarded to its end like any other.
  @Test func htmlSettlesOnceWhatItLoadsHasArrived() throws {
    let server = try LoopbackServer(routes: [
      "/late.css": .delayed(
        seconds: 0.5,
        contentType: "text/css",
        body: """
          body { margin: 0; animation: fade 30s forwards; }
          @keyframes fade { from { background: #ff0000; } to { background: #00ff00; } }
          """
      )
    ])
    defer { server.stop() }
    let page = WebPage(
      html: "<!doctype html><link rel=stylesheet href=\"late.css\"><body></body>",
      baseURL: server.url("/")
    )
    let bitmap = try WebTesting.render(page, as: .image(width: 20, height: 20))
    #expect(bitmap.pixel(x: 10, y: 10) == Self.green)
  }

  /// Pages are made ready ahead at the last size asked for; one taken at another size is laid
  /// out again at that size.
  @Test func consecutiveSnapshotsOfDifferentSizesEachFillTheirViewport() throws {
    let page = WebTesting.solidPage(
      "#fff",
      extra: """
        <div style="position:fixed;right:0;bottom:0;width:4px;height:4px;background:#ff0000"></div>
        """
    )
    for (width, height) in [(40, 20), (90, 30), (90, 30), (40, 20), (33, 77)] {
      let bitmap = try WebTesting.render(page, as: .image(width: width, height: height))
      #expect(bitmap.width == width && bitmap.height == height)
      #expect(bitmap.pixel(x: width - 1, y: height - 1) == Self.red, "\(width)×\(height)")
      #expect(bitmap.pixel(x: width - 5, y: height - 5) == .white, "\(width)×\(height)")
    }
  }

  @Test func htmlWithALoopbackBaseURLLoadsFromTheServer() throws {
    let server = try LoopbackServer(routes: [
      "/assets/style.css": .respond(
        status: 200,
        contentType: "text/css",
        body: "body { margin: 0; background: rgb(0, 255, 0); }"
      )
    ])
    defer { server.stop() }
    let page = WebPage(
      html: "<link rel=stylesheet href=\"style.css\"><body></body>",
      baseURL: server.url("/assets/")
    )
    let bitmap = try WebTesting.render(page)
    #expect(bitmap.pixel(x: 5, y: 5) == Self.green)
  }

  @Test func urlOfALoopbackServer() throws {
    let server = try LoopbackServer(routes: [
      "/invoices/42": .respond(
        status: 200,
        contentType: "text/html",
        body: """
          <!doctype html><body style="margin:0">
          <div style="width:100px;height:50px;background:rgb(0,128,255)"></div></body>
          """
      )
    ])
    defer { server.stop() }
    let bitmap = try WebTesting.render(
      WebPage(url: server.url("/invoices/42")),
      as: .image(width: 800, height: 600)
    )
    #expect(bitmap.width == 800 && bitmap.height == 600)
    #expect(bitmap.pixel(x: 99, y: 49) == Self.blue)
    #expect(bitmap.pixel(x: 100, y: 50) == .white)
  }

  @Test func fileURL() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("web-page-\(UUID().uuidString).html")
    try Data("<body style=\"margin:0;background:#ff0000\"></body>".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let bitmap = try WebTesting.render(WebPage(url: file), as: .image(width: 64, height: 32))
    #expect(bitmap.width == 64 && bitmap.height == 32)
    #expect(bitmap.pixel(x: 63, y: 31) == Self.red)
  }

  @Test func svgIsSizedByItsOwnWidthAndHeight() throws {
    let svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">
        <rect width="120" height="80" fill="#00ff00"/>
        <rect x="60" width="60" height="40" fill="#ff0000"/>
      </svg>
      """
    let bitmap = try WebTesting.render(WebPage(svg: svg))
    #expect(bitmap.width == 120 && bitmap.height == 80)
    #expect(bitmap.pixel(x: 0, y: 79) == Self.green)
    #expect(bitmap.pixel(x: 119, y: 0) == Self.red)
    // An explicit size wins over the SVG's own.
    let larger = try WebTesting.render(WebPage(svg: svg), as: .image(width: 200, height: 100))
    #expect(larger.width == 200 && larger.height == 100)
  }

  /// A committed reference, compared through the real assertion (Swift Testing entry point).
  @Test func solidBlocksMatchTheirCommittedReference() {
    let page = WebPage(
      html: """
        <!doctype html><body style="margin:0;background:#fff">
        <div style="position:absolute;left:20px;top:10px;width:60px;height:30px;background:#1e90ff"></div>
        <div style="position:absolute;left:100px;top:40px;width:80px;height:50px;background:#ff8c00"></div>
        </body>
        """
    )
    assertSnapshot(of: page, as: .image(width: 200, height: 100), timeout: 60)
  }

  /// Fifty assertions at once (Swift Testing runs the arguments in parallel) all pass and share
  /// one browser, each in its own context.
  @Test(arguments: 0..<50) func parallelAssertionsShareOneBrowser(index: Int) async throws {
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let page = WebTesting.solidPage("rgb(\(index * 5), 10, 200)")
    let strategy = Snapshotting<WebPage, Bitmap>.image(width: 40, height: 20)
    #expect(folder.verify(page, as: strategy, record: .all)?.contains("Recorded") == true)
    let first = await SharedBrowser.shared.runningProcessIdentifier()
    #expect(folder.verify(page, as: strategy, record: .never) == nil)
    let second = await SharedBrowser.shared.runningProcessIdentifier()
    #expect(first != nil && first == second, "a second browser was started")
    let bitmap = try WebTesting.render(page, as: strategy)
    #expect(bitmap.pixel(x: 1, y: 1) == RGBA(red: UInt8(index * 5), green: 10, blue: 200))
  }
}
