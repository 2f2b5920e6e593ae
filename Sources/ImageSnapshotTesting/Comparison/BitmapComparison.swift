/// How two bitmaps of the same size differ, pixel by pixel, in CIE94 colour difference.
///
/// ```swift
/// if let comparison = Bitmap.compare(reference, rendered, perceptualPrecision: 0.98) {
///   print(comparison.failingPixelCount, comparison.maximumDeltaE)
///   print(comparison.matches(precision: 0.99))
/// }
/// ```
public struct BitmapComparison: Equatable, Sendable {
  /// The number of pixels in each image.
  public var pixelCount: Int
  /// Pixels whose RGBA bytes are not identical.
  public var differingPixelCount: Int
  /// Pixels that do not match: differing by more than the tolerance of the perceptual precision
  /// (by any byte when it is 1).
  public var failingPixelCount: Int
  /// The largest ΔE\*94 of any pixel, 0 when the images are identical. About 2.3 is one
  /// just-noticeable difference; 100 is the distance from black to white.
  public var maximumDeltaE: Double
  /// The perceptual precision the comparison was made with.
  public var perceptualPrecision: Float

  /// The fraction of pixels that match, 0...1, as a `Float` like the `precision` it is compared
  /// with (so that 98 matching pixels of 100 give exactly the `Float` 0.98).
  public var matchingPixelFraction: Float {
    guard pixelCount > 0 else { return 1 }
    return Float(Double(pixelCount - failingPixelCount) / Double(pixelCount))
  }

  /// The perceptual precision of the worst pixel: 1 − (largest ΔE\*94 / 100), at least 0.
  public var lowestPerceptualPrecision: Float {
    Float(1 - min(maximumDeltaE / 100, 1))
  }

  /// Whether at least the fraction `precision` of the pixels match.
  ///
  /// A precision of 1 (or more) requires every pixel to match, however large the image; below 1
  /// the fraction of matching pixels is compared as a `Float`.
  public func matches(precision: Float) -> Bool {
    if failingPixelCount == 0 { return true }
    if precision >= 1 { return false }
    return matchingPixelFraction >= precision
  }
}

extension Bitmap {
  /// Compares two bitmaps of the same size, outside of any assertion.
  ///
  /// A pixel matches when its RGBA bytes are identical or, when `perceptualPrecision` is below 1,
  /// when the ΔE\*94 between the two pixels is at most `(1 − perceptualPrecision) × 100`. Each
  /// pixel is compared composited over black and over white, and the larger difference counts.
  ///
  /// - Parameters:
  ///   - reference: The expected image; ΔE\*94 weighs chroma by the reference's.
  ///   - new: The image to check.
  ///   - perceptualPrecision: 0...1; 1 means byte-identical pixels, 0.98 allows ΔE\*94 2.
  /// - Returns: The counts and the largest difference, or `nil` when the sizes differ.
  /// - Complexity: O(*n*) in the number of pixels: one `memcmp` when the images are equal,
  ///   otherwise a pass that converts only differing pixels to CIELAB.
  public static func compare(
    _ reference: Bitmap,
    _ new: Bitmap,
    perceptualPrecision: Float = 1
  ) -> BitmapComparison? {
    compare(reference, new, perceptualPrecision: perceptualPrecision, threading: .automatic)
  }

  /// ``compare(_:_:perceptualPrecision:)`` on the calling thread only, whatever the size, for the
  /// benchmark's single-threaded column; the result is the same.
  @_spi(Benchmarks)
  public static func compareSingleThreaded(
    _ reference: Bitmap,
    _ new: Bitmap,
    perceptualPrecision: Float = 1
  ) -> BitmapComparison? {
    compare(reference, new, perceptualPrecision: perceptualPrecision, threading: .singleThreaded)
  }

  static func compare(
    _ reference: Bitmap,
    _ new: Bitmap,
    perceptualPrecision: Float,
    threading: PixelComparisonThreading
  ) -> BitmapComparison? {
    compare(
      reference,
      new,
      perceptualPrecision: perceptualPrecision,
      threading: threading,
      differenceImageUnlessMatching: nil
    )?.comparison
  }

  /// Compares two bitmaps of the same size and, when they do not match at `precision`, draws
  /// their difference image from the same pass.
  ///
  /// - Returns: `nil` when the sizes differ; otherwise the comparison and, when `precision` is
  ///   given and the images do not match at it, the difference image.
  /// - Complexity: One `memcmp` when the images are identical; otherwise one pass, which with a
  ///   `precision` also fills a ``PixelDifferenceMap`` (5 bytes a pixel) to draw from.
  static func compare(
    _ reference: Bitmap,
    _ new: Bitmap,
    perceptualPrecision: Float,
    threading: PixelComparisonThreading = .automatic,
    differenceImageUnlessMatching precision: Float?
  ) -> (comparison: BitmapComparison, differenceImage: Bitmap?)? {
    guard reference.width == new.width, reference.height == new.height else { return nil }
    let pixelCount = reference.pixelCount
    if PixelComparison.bytesAreEqual(reference.rgbaBytes, new.rgbaBytes) {
      return (BitmapComparison(pixelCount, PixelComparisonTally(), perceptualPrecision), nil)
    }
    let tolerance = deltaETolerance(perceptualPrecision: perceptualPrecision)
    guard let precision else {
      let tally = PixelComparison.compare(
        reference: reference.rgbaBytes,
        new: new.rgbaBytes,
        tolerance: tolerance,
        threading: threading
      )
      return (BitmapComparison(pixelCount, tally, perceptualPrecision), nil)
    }
    let map = PixelDifferenceMap(pixelCount: pixelCount)
    let tally = PixelComparison.compare(
      reference: reference.rgbaBytes,
      new: new.rgbaBytes,
      tolerance: tolerance,
      threading: threading,
      recordingInto: map
    )
    let comparison = BitmapComparison(pixelCount, tally, perceptualPrecision)
    if comparison.matches(precision: precision) { return (comparison, nil) }
    return (comparison, differenceImage(reference: reference, map: map))
  }

  /// The largest ΔE\*94 a matching pixel may have, or `nil` for byte-exact comparison.
  static func deltaETolerance(perceptualPrecision: Float) -> Double? {
    perceptualPrecision >= 1 ? nil : Double(1 - max(perceptualPrecision, 0)) * 100
  }
}

extension BitmapComparison {
  /// The comparison of two images of `pixelCount` pixels whose pass found `tally`.
  fileprivate init(_ pixelCount: Int, _ tally: PixelComparisonTally, _ perceptualPrecision: Float) {
    self.init(
      pixelCount: pixelCount,
      differingPixelCount: tally.differingPixelCount,
      failingPixelCount: tally.failingPixelCount,
      maximumDeltaE: tally.maximumDeltaE,
      perceptualPrecision: perceptualPrecision
    )
  }
}
