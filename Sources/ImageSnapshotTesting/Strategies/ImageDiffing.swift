import Foundation
import SnapshotTesting

extension Diffing where Value == Bitmap {
  /// Compares bitmaps pixel by pixel and requires every pixel to be identical; stores PNG.
  public static let image = Diffing.image()

  /// Compares bitmaps with tolerances; stores them as PNG.
  ///
  /// ```swift
  /// let lenient = Diffing<Bitmap>.image(precision: 0.99, perceptualPrecision: 0.98)
  /// ```
  ///
  /// A pixel matches when its ΔE\*94 (CIE94 colour difference, over black and over white, the
  /// larger) is at most `(1 − perceptualPrecision) × 100`; the images match when at least the
  /// fraction `precision` of the pixels match. Both 1 mean byte-identical RGBA. Images of different
  /// sizes never match. On a mismatch the reference, the new image and a difference image are
  /// attached as `reference.png`, `failure.png` and `difference.png`.
  ///
  /// A reference that cannot be decoded (a truncated file, a Git LFS pointer) does not crash: the
  /// comparison fails with a message that says why.
  ///
  /// - Parameters:
  ///   - precision: The fraction of pixels that must match, 0...1.
  ///   - perceptualPrecision: How close a pixel's colour must be to match, 0...1: 0.98 allows
  ///     ΔE\*94 2, a difference most people cannot see.
  ///   A value outside `0...1`, or NaN, fails every assertion that uses the strategy, naming the
  ///   parameter.
  /// - Complexity: O(*n*) in the number of pixels; a `memcmp` when the images are identical.
  public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Diffing {
    image(ImageTolerances(precision: precision, perceptualPrecision: perceptualPrecision))
  }

  /// Compares bitmaps with tolerances for rendering noise: anti-aliasing, a budget of failing
  /// pixels and masked regions; stores them as PNG.
  ///
  /// ```swift
  /// let chart = Diffing<Bitmap>.image(
  ///   perceptualPrecision: 0.98,
  ///   ignoringAntialiasing: true,
  ///   maxDifferentPixels: 25,
  ///   masks: [Bitmap.Region(x: 0, y: 0, width: 120, height: 20)]
  /// )
  /// ```
  ///
  /// Masked pixels are left out of the comparison and of the pixel total `precision` divides.
  /// Among the others, a pixel fails when its ΔE\*94 is beyond what `perceptualPrecision` allows,
  /// unless `ignoringAntialiasing` is set and it is anti-aliasing in either image (detected as
  /// pixelmatch does). The images match when at most `maxDifferentPixels` pixels fail and,
  /// for a `precision` below 1, at least that fraction match. On a mismatch the difference image
  /// shows failing pixels in red, forgiven anti-aliasing in yellow and masks in magenta.
  ///
  /// - Parameters:
  ///   - precision: The fraction of compared pixels that must match, 0...1. With
  ///     `maxDifferentPixels`, 1 adds no requirement of its own.
  ///   - perceptualPrecision: How close a pixel's colour must be to match, 0...1.
  ///   - ignoringAntialiasing: Whether failing pixels that are anti-aliasing are forgiven.
  ///   - maxDifferentPixels: How many pixels may fail, 0 or more; `nil` for no budget.
  ///   - masks: Regions to leave out, each with a positive size and touching the image (a
  ///     region partly outside is clipped).
  ///   A parameter out of range, or a mask wholly outside the image, fails every assertion
  ///   that uses the strategy, naming it; masks that cover the whole image give a warning.
  public static func image(
    precision: Float = 1,
    perceptualPrecision: Float = 1,
    ignoringAntialiasing: Bool = false,
    maxDifferentPixels: Int? = nil,
    masks: [Bitmap.Region] = []
  ) -> Diffing {
    image(
      ImageTolerances(
        precision: precision,
        perceptualPrecision: perceptualPrecision,
        ignoringAntialiasing: ignoringAntialiasing,
        maxDifferentPixels: maxDifferentPixels,
        masks: masks
      )
    )
  }

  static func image(_ tolerances: ImageTolerances) -> Diffing {
    var diffing = Diffing.diff(
      toData: { bitmap in
        // Checked here, where every assertion passes, so identical images fail too.
        guard tolerances.check(bitmap) else { return Data() }
        // Encoding valid pixels fails only when memory runs out; an empty file is then recorded
        // and reported as such on the next comparison.
        return (try? bitmap.pngData()) ?? Data()
      },
      fromData: { data in
        do {
          return try Bitmap(pngData: data)
        } catch {
          return .undecodable(error as? BitmapError ?? .invalidPNG(reason: "\(error)"))
        }
      },
      diffV2: { reference, new in
        ImageDifference.describe(reference: reference, new: new, tolerances: tolerances)
      }
    ).reviewedAsImages()
    // A match decodes the reference and compares pixels; the image is encoded only to be
    // written. The tolerances are checked on every assertion all the same.
    diffing.encodesOnlyToWrite = { bitmap in _ = tolerances.check(bitmap) }
    return diffing
  }
}

/// The message and attachments for two bitmaps that do not match.
enum ImageDifference {
  static func describe(
    reference: Bitmap,
    new: Bitmap,
    tolerances: ImageTolerances
  ) -> (String, [DiffAttachment])? {
    if let failure = reference.decodingFailure {
      return ("Reference image could not be decoded. \(failure.description)", attachments(new: new))
    }
    if let failure = new.decodingFailure {
      return ("Newly-taken snapshot could not be decoded. \(failure.description)", [])
    }
    // One pass: the difference image, when there is one, is drawn from what it found.
    guard
      let result = Bitmap.compare(
        reference,
        new,
        options: tolerances.comparisonOptions,
        differenceImageUnless: tolerances.accepts
      )
    else {
      return (
        """
        Newly-taken snapshot@(\(new.width), \(new.height)) does not match \
        reference@(\(reference.width), \(reference.height)).
        """,
        attachments(reference: reference, new: new, difference: Bitmap.sideBySide(reference, new))
      )
    }
    // Without a difference image, the images match within the tolerances.
    guard let difference = result.differenceImage else { return nil }
    return (
      message(result.comparison, tolerances: tolerances),
      attachments(reference: reference, new: new, difference: difference)
    )
  }

  /// Upstream's wording, then the counts: failing pixels and the largest ΔE\*94, the pixel
  /// budget when there is one, forgiven and masked pixels when there are any.
  static func message(_ comparison: BitmapComparison, tolerances: ImageTolerances) -> String {
    var lines = ["Newly-taken snapshot does not match reference."]
    let largest = formatted(comparison.maximumDeltaE)
    let count = "\(comparison.failingPixelCount) of \(comparison.comparedPixelCount) pixels"
    let isExact = tolerances.precision >= 1 && comparison.perceptualPrecision >= 1
    if let budget = tolerances.maxDifferentPixels {
      if comparison.failingPixelCount > budget {
        lines.append("\(comparison.failingPixelCount) pixels differ, more than the allowed \(budget).")
      }
      if tolerances.precision < 1, !comparison.matches(precision: tolerances.precision) {
        lines.append(precisionLine(comparison, precision: tolerances.precision))
      }
    } else if !isExact {
      lines.append(precisionLine(comparison, precision: tolerances.precision))
      lines.append(
        """
        The lowest perceptual color precision \(comparison.lowestPerceptualPrecision) is less \
        than required \(comparison.perceptualPrecision)
        """
      )
    }
    if let tolerance = Bitmap.deltaETolerance(perceptualPrecision: comparison.perceptualPrecision) {
      lines.append(
        "\(count) differ by more than ΔE*94 \(formatted(tolerance)); the largest difference is "
          + "ΔE*94 \(largest)."
      )
    } else {
      lines.append("\(count) differ; the largest difference is ΔE*94 \(largest).")
    }
    if comparison.antialiasedPixelCount > 0 {
      lines.append(
        "\(comparison.antialiasedPixelCount) more pixels differ but are anti-aliasing, and are "
          + "ignored (yellow in the difference image)."
      )
    }
    if comparison.maskedPixelCount > 0 {
      lines.append(
        "\(comparison.maskedPixelCount) pixels are masked (magenta in the difference image)."
      )
    }
    return lines.joined(separator: "\n")
  }

  private static func precisionLine(_ comparison: BitmapComparison, precision: Float) -> String {
    """
    The percentage of pixels that match \(comparison.matchingPixelFraction) is less than \
    required \(precision)
    """
  }

  /// Two decimals, without Foundation's locale-dependent formatting.
  static func formatted(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// The reference, the new image and their difference image, as PNG, each that can be encoded.
  /// They are for looking at, not keeping: encoded for speed, not size.
  static func attachments(reference: Bitmap, new: Bitmap, difference: Bitmap) -> [DiffAttachment] {
    var attachments: [DiffAttachment] = []
    if let data = try? reference.pngDataForViewing() {
      attachments.append(.data(data, name: "reference.png"))
    }
    attachments += self.attachments(new: new)
    if let data = try? difference.pngDataForViewing() {
      attachments.append(.data(data, name: "difference.png"))
    }
    return attachments
  }

  static func attachments(new: Bitmap) -> [DiffAttachment] {
    guard let data = try? new.pngDataForViewing() else { return [] }
    return [.data(data, name: "failure.png")]
  }
}
