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
  /// Pixels left out of the comparison by masks.
  public var maskedPixelCount = 0
  /// Pixels whose RGBA bytes are not identical (masked pixels left out).
  public var differingPixelCount: Int
  /// Pixels that do not match: differing by more than the tolerance of the perceptual precision
  /// (by any byte when it is 1), and not forgiven as anti-aliasing.
  public var failingPixelCount: Int
  /// Pixels that differ by more than the tolerance but are anti-aliasing in one of the images,
  /// when the comparison ignores anti-aliasing; they do not fail.
  public var antialiasedPixelCount = 0
  /// The largest ΔE\*94 of any pixel compared and not forgiven as anti-aliasing, 0 when the
  /// images are identical. About 2.3 is one just-noticeable difference; 100 is the distance
  /// from black to white.
  public var maximumDeltaE: Double
  /// The perceptual precision the comparison was made with.
  public var perceptualPrecision: Float

  /// The pixels compared: all but the masked ones. `precision` is a fraction of these.
  public var comparedPixelCount: Int { pixelCount - maskedPixelCount }

  /// The fraction of compared pixels that match, 0...1, as a `Float` like the `precision` it is
  /// compared with (so that 98 matching pixels of 100 give exactly the `Float` 0.98); 1 when
  /// masks leave nothing to compare.
  public var matchingPixelFraction: Float {
    guard comparedPixelCount > 0 else { return 1 }
    return Float(Double(comparedPixelCount - failingPixelCount) / Double(comparedPixelCount))
  }

  /// The perceptual precision of the worst pixel: 1 − (largest ΔE\*94 / 100), at least 0.
  public var lowestPerceptualPrecision: Float {
    Float(1 - min(maximumDeltaE / 100, 1))
  }

  /// Whether at least the fraction `precision` of the compared pixels match.
  ///
  /// A precision of 1 (or more) requires every pixel to match, however large the image; below 1
  /// the fraction of matching pixels is compared as a `Float`.
  public func matches(precision: Float) -> Bool {
    if failingPixelCount == 0 { return true }
    if precision >= 1 { return false }
    return matchingPixelFraction >= precision
  }

  /// Whether the comparison is within both limits: at most `maxDifferentPixels` pixels fail, and
  /// at least the fraction `precision` match.
  ///
  /// With a pixel budget, a `precision` of 1 adds no requirement of its own, so that
  /// `.image(maxDifferentPixels: 25)` allows 25 failing pixels; below 1 it must hold as well.
  public func matches(precision: Float, maxDifferentPixels: Int?) -> Bool {
    guard let maxDifferentPixels else { return matches(precision: precision) }
    guard failingPixelCount <= maxDifferentPixels else { return false }
    return precision >= 1 || matches(precision: precision)
  }

  /// What a comparison leaves out or forgives, besides its perceptual precision.
  struct Options: Sendable {
    var perceptualPrecision: Float
    var ignoringAntialiasing = false
    var masks: [Bitmap.Region] = []
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

  /// The comparison the image diffing makes of two equally sized bitmaps that it accepts: with
  /// the per-pixel map it would draw a difference image from, but drawing none. For the
  /// benchmark that weighs anti-aliasing detection against the comparison it adds to.
  @_spi(Benchmarks)
  public static func compareAsTheImageDiffingDoes(
    _ reference: Bitmap,
    _ new: Bitmap,
    perceptualPrecision: Float,
    ignoringAntialiasing: Bool
  ) -> BitmapComparison {
    let options = BitmapComparison.Options(
      perceptualPrecision: perceptualPrecision,
      ignoringAntialiasing: ignoringAntialiasing
    )
    let result = compare(reference, new, options: options, differenceImageUnless: { _ in true })
    guard let result else { preconditionFailure("The sizes differ") }
    return result.comparison
  }

  /// Compares two bitmaps of the same size, leaving out the pixels under `masks` and, when
  /// asked, forgiving anti-aliasing.
  ///
  /// ```swift
  /// let comparison = Bitmap.compare(
  ///   reference, rendered, perceptualPrecision: 0.98, ignoringAntialiasing: true,
  ///   masks: [Bitmap.Region(x: 0, y: 0, width: 120, height: 20)]
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - reference: The expected image.
  ///   - new: The image to compare with it, of the same size.
  ///   - perceptualPrecision: How similar a pixel must be to its reference to match, from 0 to 1:
  ///     1 asks for the same colour, 0.98 forgives what the eye barely sees (CIE ΔE\*94).
  ///   - ignoringAntialiasing: Whether a pixel that fails but is anti-aliasing in either image
  ///     (detected as pixelmatch does) is forgiven; it is then counted in
  ///     ``BitmapComparison/antialiasedPixelCount``, not as failing.
  ///   - masks: Regions left out of the comparison, clipped to the image; the parts outside it
  ///     are ignored.
  /// - Returns: The counts and the largest difference, or `nil` when the sizes differ.
  public static func compare(
    _ reference: Bitmap,
    _ new: Bitmap,
    perceptualPrecision: Float = 1,
    ignoringAntialiasing: Bool = false,
    masks: [Region] = []
  ) -> BitmapComparison? {
    compare(
      reference,
      new,
      options: BitmapComparison.Options(
        perceptualPrecision: perceptualPrecision,
        ignoringAntialiasing: ignoringAntialiasing,
        masks: masks
      ),
      differenceImageUnless: nil
    )?.comparison
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
      options: BitmapComparison.Options(perceptualPrecision: perceptualPrecision),
      threading: threading,
      differenceImageUnless: nil
    )?.comparison
  }

  /// Compares two bitmaps of the same size and, unless `accepts` accepts the comparison, draws
  /// their difference image from the same pass.
  ///
  /// 1. Masked pixels are made equal (the new image's take the reference's), and counted.
  /// 2. One `memcmp`: identical images, the common case, end here.
  /// 3. One pass counts the differing and failing pixels, filling a ``PixelDifferenceMap``
  ///    (5 bytes a pixel) when a difference image may be needed. When anti-aliasing is ignored,
  ///    the pass tests each failing pixel as it finds it and forgives those that are.
  ///
  /// - Returns: `nil` when the sizes differ; otherwise the comparison and, when `accepts` is
  ///   given and rejects it, the difference image.
  static func compare(
    _ reference: Bitmap,
    _ new: Bitmap,
    options: BitmapComparison.Options,
    threading: PixelComparisonThreading = .automatic,
    differenceImageUnless accepts: ((BitmapComparison) -> Bool)?
  ) -> (comparison: BitmapComparison, differenceImage: Bitmap?)? {
    guard reference.width == new.width, reference.height == new.height else { return nil }
    let coverage = MaskCoverage(options.masks, width: new.width, height: new.height)
    let compared = coverage.masking(new.rgbaBytes, with: reference.rgbaBytes)
    var comparison = BitmapComparison(
      pixelCount: reference.pixelCount,
      maskedPixelCount: coverage.pixelCount,
      differingPixelCount: 0,
      failingPixelCount: 0,
      maximumDeltaE: 0,
      perceptualPrecision: options.perceptualPrecision
    )
    if PixelComparison.bytesAreEqual(reference.rgbaBytes, compared) { return (comparison, nil) }
    let tolerance = deltaETolerance(perceptualPrecision: options.perceptualPrecision)
    func run(
      _ antialiasing: Antialiasing?
    ) -> (comparison: BitmapComparison, differenceImage: Bitmap?) {
      guard accepts != nil else {
        comparison.add(
          PixelComparison.compare(
            reference: reference.rgbaBytes,
            new: compared,
            tolerance: tolerance,
            threading: threading,
            antialiasing: antialiasing
          )
        )
        return (comparison, nil)
      }
      // Borrowed by the pass, which writes through its pointers: an optional map passed as
      // pointers alone could be freed before the pass ends.
      let map = PixelDifferenceMap(pixelCount: reference.pixelCount)
      comparison.add(
        PixelComparison.compare(
          reference: reference.rgbaBytes,
          new: compared,
          tolerance: tolerance,
          threading: threading,
          antialiasing: antialiasing,
          recordingInto: map
        )
      )
      guard let accepts, !accepts(comparison) else { return (comparison, nil) }
      return (comparison, differenceImage(reference: reference, map: map, coverage: coverage))
    }
    guard options.ignoringAntialiasing, reference.pixelCount > 0 else { return run(nil) }
    // The detector reads the images as rendered: a masked neighbour still shapes an edge.
    return Antialiasing.reading(
      width: reference.width,
      height: reference.height,
      reference: reference.rgbaBytes,
      new: new.rgbaBytes,
      run
    )
  }

  /// The largest ΔE\*94 a matching pixel may have, or `nil` for byte-exact comparison.
  static func deltaETolerance(perceptualPrecision: Float) -> Double? {
    perceptualPrecision >= 1 ? nil : Double(1 - max(perceptualPrecision, 0)) * 100
  }
}

extension BitmapComparison {
  /// Takes the counts and the largest ΔE\*94 of one pass over the images.
  fileprivate mutating func add(_ tally: PixelComparisonTally) {
    differingPixelCount += tally.differingPixelCount
    failingPixelCount += tally.failingPixelCount
    antialiasedPixelCount += tally.antialiasedPixelCount
    maximumDeltaE = max(maximumDeltaE, tally.maximumDeltaE)
  }
}
