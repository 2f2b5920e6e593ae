import Foundation
import ImageSnapshotTesting
import SnapshotTesting

extension Snapshotting where Value == WebPage, Format == Bitmap {
  /// Renders the page in headless Chromium at 1280×720 (an SVG at its own size) and requires
  /// identical pixels.
  ///
  /// ```swift
  /// assertSnapshot(of: WebPage(html: "<h1>Invoice</h1>"), as: .image)
  /// ```
  public static var image: Snapshotting { .image() }

  /// Renders the page in headless Chromium and compares the screenshot as a `Bitmap`.
  ///
  /// ```swift
  /// assertSnapshot(of: page, as: .image(width: 800, height: 600, fullPage: true))
  /// assertSnapshot(
  ///   of: page,
  ///   as: .image(element: "#invoice", masking: ["time"], perceptualPrecision: 0.98)
  /// )
  /// ```
  ///
  /// The page renders at device scale 1, in UTC and `en-US`, with reduced motion, the caret and
  /// scrollbars hidden and animations settled, after `load`, `document.fonts.ready` and two
  /// animation frames. Requests to anything but loopback, `file:` and `data:` URLs are blocked
  /// and each is reported as a warning. A page that fails to load, answers 4xx or 5xx, or a
  /// selector that is invalid or matches nothing fails the assertion and records nothing.
  ///
  /// - Parameters:
  ///   - width: The viewport's width in CSS pixels; 1280, or an SVG's own width, if `nil`.
  ///   - height: The viewport's height; 720, or an SVG's own height, if `nil`.
  ///   - fullPage: Whether to capture the whole scrollable page rather than the viewport.
  ///   - element: A CSS selector: capture only the box of the first element it matches.
  ///   - masking: CSS selectors whose every match is painted magenta before the comparison, for
  ///     content that changes from run to run (times, ads).
  ///   - precision: The fraction of pixels that must match, 0...1.
  ///   - perceptualPrecision: How close a pixel's colour must be to match, 0...1.
  ///   - ignoringAntialiasing: Whether pixels that look like anti-aliasing may differ.
  ///   - maxDifferentPixels: How many pixels may fail, if set.
  public static func image(
    width: Int? = nil,
    height: Int? = nil,
    fullPage: Bool = false,
    element: String? = nil,
    masking: [String] = [],
    precision: Float = 1,
    perceptualPrecision: Float = 1,
    ignoringAntialiasing: Bool = false,
    maxDifferentPixels: Int? = nil
  ) -> Snapshotting {
    let screenshot = PageScreenshot(fullPage: fullPage, element: element, masking: masking)
    return Snapshotting<Bitmap, Bitmap>.image(
      precision: precision,
      perceptualPrecision: perceptualPrecision,
      ignoringAntialiasing: ignoringAntialiasing,
      maxDifferentPixels: maxDifferentPixels
    )
    .asyncPullback { page in
      WebRendering.snapshot(
        of: page,
        width: width,
        height: height,
        placeholder: { Bitmap(validWidth: 1, height: 1, rgbaBytes: [0, 0, 0, 0]) }
      ) { session throws(WebSnapshotError) in
        try await screenshot.take(session)
      }
    }
  }
}
