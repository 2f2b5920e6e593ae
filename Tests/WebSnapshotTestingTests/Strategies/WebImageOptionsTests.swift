import Foundation
import ImageSnapshotTesting
import SnapshotTesting
import Testing

@testable import WebSnapshotTesting

/// Each option of `.image(...)`, and the determinism the renders promise.
@Suite(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
struct WebImageOptionsTests {
  @Test func everySubsetOfTheParametersCompiles() {
    let strategies: [Snapshotting<WebPage, Bitmap>] = [
      .image,
      .image(),
      .image(width: 800, height: 600, fullPage: true),
      .image(
        element: "#invoice",
        masking: ["time", ".ad"],
        perceptualPrecision: 0.98,
        ignoringAntialiasing: true
      ),
      .image(
        width: 1,
        height: 2,
        fullPage: false,
        element: "a",
        masking: [],
        precision: 0.9,
        perceptualPrecision: 0.9,
        ignoringAntialiasing: false,
        maxDifferentPixels: 3
      ),
    ]
    #expect(strategies.allSatisfy { $0.pathExtension == "png" })
  }

  @Test func fullPageCapturesBelowTheViewport() throws {
    let page = WebPage(
      html: """
        <body style="margin:0">
        <div style="height:1500px;background:rgb(0,0,255)"></div>
        <div style="height:500px;background:rgb(255,0,0)"></div></body>
        """
    )
    let viewport = try WebTesting.render(page, as: .image(width: 800, height: 600))
    #expect(viewport.height == 600)
    let whole = try WebTesting.render(page, as: .image(width: 800, height: 600, fullPage: true))
    #expect(whole.width == 800 && whole.height == 2000)
    #expect(whole.pixel(x: 10, y: 1999) == RGBA(red: 255, green: 0, blue: 0))
    #expect(whole.pixel(x: 10, y: 10) == RGBA(red: 0, green: 0, blue: 255))
  }

  @Test func elementCapturesTheBoxOfTheFirstMatch() throws {
    let page = WebPage(
      html: """
        <body style="margin:0">
        <div id="invoice" style="position:absolute;left:50px;top:40px;width:100px;height:60px;background:#f00"></div>
        <div id="invoice" style="position:absolute;left:0;top:0;width:10px;height:10px;background:#00f"></div>
        <div id="far" style="position:absolute;left:0;top:1500px;width:30px;height:20px;background:#0f0"></div>
        </body>
        """
    )
    let element = try WebTesting.render(page, as: .image(element: "#invoice"))
    #expect(element.width == 100 && element.height == 60)
    #expect(element.pixel(x: 0, y: 0) == RGBA(red: 255, green: 0, blue: 0))
    #expect(element.pixel(x: 99, y: 59) == RGBA(red: 255, green: 0, blue: 0))
    // Below the viewport too.
    let far = try WebTesting.render(page, as: .image(element: "#far"))
    #expect(far.width == 30 && far.height == 20)
    #expect(far.pixel(x: 15, y: 10) == RGBA(red: 0, green: 255, blue: 0))
  }

  /// On a page that scrolled itself, a mask covers the element where the viewport shows it.
  @Test func masksFollowAScrolledPage() throws {
    let page = WebPage(
      html: """
        <!doctype html><body style="margin:0;height:2000px;background:#fff">
        <div class="stamp" style="position:absolute;left:10px;top:150px;width:20px;height:20px;background:#000"></div>
        <script>window.addEventListener('load', () => window.scrollTo(0, 100));</script>
        </body>
        """
    )
    let bitmap = try WebTesting.render(
      page,
      as: .image(width: 50, height: 100, masking: [".stamp"])
    )
    #expect(bitmap.pixel(x: 15, y: 55) == PageScreenshot.maskColor)
    #expect(bitmap.pixel(x: 15, y: 45) == .white)
    #expect(bitmap.pixel(x: 15, y: 75) == .white)
  }

  @Test func maskingPaintsEveryMatchAndHidesWhatChanges() throws {
    func page(_ time: String) -> WebPage {
      WebPage(
        html: """
          <body style="margin:0;background:#fff">
          <time style="position:absolute;left:10px;top:10px;width:80px;height:20px;display:block;background:#000;color:#fff">\(time)</time>
          <div class="ad" style="position:absolute;left:200px;top:0;width:30px;height:30px;background:#0f0"></div>
          <div class="ad" style="position:absolute;left:300px;top:0;width:30px;height:30px;background:#0f0"></div>
          </body>
          """
      )
    }
    let strategy = Snapshotting<WebPage, Bitmap>.image(
      width: 400,
      height: 100,
      masking: ["time", ".ad"]
    )
    let morning = try WebTesting.render(page("09:00"), as: strategy)
    let evening = try WebTesting.render(page("21:45"), as: strategy)
    #expect(morning == evening)
    #expect(morning.pixel(x: 10, y: 10) == PageScreenshot.maskColor)
    #expect(morning.pixel(x: 89, y: 29) == PageScreenshot.maskColor)
    #expect(morning.pixel(x: 329, y: 29) == PageScreenshot.maskColor)
    #expect(morning.pixel(x: 150, y: 50) == .white)
    // Unmasked, the two differ.
    let plain = Snapshotting<WebPage, Bitmap>.image(width: 400, height: 100)
    #expect(
      try WebTesting.render(page("09:00"), as: plain) != WebTesting.render(page("21:45"), as: plain)
    )
  }

  @Test func tolerancesReachTheImageComparison() {
    let folder = ReferenceFolder()
    defer { folder.remove() }
    func page(_ block: String) -> WebPage {
      WebPage(
        html: """
          <body style="margin:0;background:rgb(100,100,100)">
          <div style="position:absolute;left:0;top:0;width:2px;height:2px;background:\(block)"></div></body>
          """
      )
    }
    let size = (width: 50, height: 50)
    _ = folder.verify(page("rgb(100,100,100)"), as: .image(width: 50, height: 50), record: .all)
    let changed = page("rgb(0,0,0)")
    let failure = folder.verify(
      changed,
      as: .image(width: size.width, height: size.height),
      record: .never
    )
    #expect(failure?.contains("4 of 2500 pixels differ") == true, "\(failure ?? "passed")")
    #expect(
      folder.verify(
        changed,
        as: .image(width: 50, height: 50, maxDifferentPixels: 4),
        record: .never
      )
        == nil
    )
    #expect(
      folder.verify(changed, as: .image(width: 50, height: 50, precision: 0.998), record: .never)
        == nil
    )
    let close = page("rgb(101,100,100)")
    #expect(folder.verify(close, as: .image(width: 50, height: 50), record: .never) != nil)
    #expect(
      folder.verify(
        close,
        as: .image(width: 50, height: 50, perceptualPrecision: 0.98),
        record: .never
      )
        == nil
    )
    #expect(
      folder.verify(
        page("rgb(100,100,100)"),
        as: .image(width: 50, height: 50, ignoringAntialiasing: true),
        record: .never
      ) == nil
    )
  }

  @Test func animationsSettleAndEnvironmentIsFixed() throws {
    let page = WebPage(
      html: """
        <style>
        @keyframes fade { from { background: rgb(255,0,0); } to { background: rgb(0,0,255); } }
        @keyframes spin { from { background: rgb(0,255,0); } to { background: rgb(0,0,0); } }
        #finite { animation: fade 30s forwards; }
        #infinite { animation: spin 3s linear infinite; }
        body { margin: 0 }
        div { width: 20px; height: 20px; }
        </style>
        <div id="finite"></div><div id="infinite"></div>
        """
    )
    let first = try WebTesting.render(page, as: .image(width: 40, height: 40))
    #expect(first.pixel(x: 5, y: 5) == RGBA(red: 0, green: 0, blue: 255), "finite: at its end")
    #expect(first.pixel(x: 5, y: 25) == RGBA(red: 0, green: 255, blue: 0), "infinite: at its start")
    let second = try WebTesting.render(page, as: .image(width: 40, height: 40))
    #expect(first == second)

    let environment = WebPage(
      html: """
        <p id="out"></p>
        <script>
        document.getElementById('out').textContent = [
          new Date(0).getTimezoneOffset(),
          Intl.DateTimeFormat().resolvedOptions().timeZone,
          (1234.5).toLocaleString(),
          navigator.language,
          matchMedia('(prefers-reduced-motion: reduce)').matches,
          devicePixelRatio,
        ].join(' ');
        </script>
        """
    )
    let (tree, failure, _) = WebTesting.snapshot(environment, as: .accessibilityTree)
    #expect(failure == nil)
    #expect(tree == "- paragraph: 0 UTC 1,234.5 en-US true 1\n")
  }
}
