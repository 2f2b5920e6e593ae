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
    let problem = ImagePrecision.problem(
      precision: precision,
      perceptualPrecision: perceptualPrecision
    )
    return .diff(
      toData: { bitmap in
        // Reported here, where every assertion passes, so identical images fail too.
        if let problem { return Data(UnavailableSnapshot.report(problem).utf8) }
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
        ImageDifference.describe(
          reference: reference,
          new: new,
          precision: precision,
          perceptualPrecision: perceptualPrecision
        )
      }
    ).reviewedAsImages()
  }
}

/// The message and attachments for two bitmaps that do not match.
enum ImageDifference {
  static func describe(
    reference: Bitmap,
    new: Bitmap,
    precision: Float,
    perceptualPrecision: Float
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
        perceptualPrecision: perceptualPrecision,
        differenceImageUnlessMatching: precision
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
    // Without a difference image, the images match at `precision`.
    guard let difference = result.differenceImage else { return nil }
    return (
      message(result.comparison, precision: precision),
      attachments(reference: reference, new: new, difference: difference)
    )
  }

  /// Upstream's wording, then the count of failing pixels and the largest ΔE\*94.
  static func message(_ comparison: BitmapComparison, precision: Float) -> String {
    let largest = formatted(comparison.maximumDeltaE)
    let count = "\(comparison.failingPixelCount) of \(comparison.pixelCount) pixels"
    if precision >= 1 && comparison.perceptualPrecision >= 1 {
      return """
        Newly-taken snapshot does not match reference.
        \(count) differ; the largest difference is ΔE*94 \(largest).
        """
    }
    let tolerance = Bitmap.deltaETolerance(perceptualPrecision: comparison.perceptualPrecision)
    let beyond = tolerance.map { "differ by more than ΔE*94 \(formatted($0))" } ?? "differ"
    return """
      Newly-taken snapshot does not match reference.
      The percentage of pixels that match \(comparison.matchingPixelFraction) is less than \
      required \(precision)
      The lowest perceptual color precision \(comparison.lowestPerceptualPrecision) is less \
      than required \(comparison.perceptualPrecision)
      \(count) \(beyond); the largest difference is ΔE*94 \(largest).
      """
  }

  /// Two decimals, without Foundation's locale-dependent formatting.
  static func formatted(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// The reference, the new image and their difference image, as PNG, each that can be encoded.
  static func attachments(reference: Bitmap, new: Bitmap, difference: Bitmap) -> [DiffAttachment] {
    var attachments: [DiffAttachment] = []
    if let data = try? reference.pngData() {
      attachments.append(.data(data, name: "reference.png"))
    }
    attachments += self.attachments(new: new)
    if let data = try? difference.pngData() {
      attachments.append(.data(data, name: "difference.png"))
    }
    return attachments
  }

  static func attachments(new: Bitmap) -> [DiffAttachment] {
    guard let data = try? new.pngData() else { return [] }
    return [.data(data, name: "failure.png")]
  }
}
