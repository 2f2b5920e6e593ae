import SnapshotTesting

/// What an image strategy tolerates, and the checks of what a test gave it.
///
/// A value out of range is a mistake in the test: the assertion fails naming the parameter, even
/// when the images are identical, rather than letting a black pixel on white pass.
struct ImageTolerances: Sendable {
  var precision: Float = 1
  var perceptualPrecision: Float = 1
  var ignoringAntialiasing = false
  var maxDifferentPixels: Int?
  var masks: [Bitmap.Region] = []

  /// The message for the first parameter out of range, whatever the image; `nil` when all are
  /// valid.
  var problem: String? {
    if let problem = Self.fractionProblem(
      "precision",
      precision,
      meaning: "the fraction of pixels that must match"
    ) {
      return problem
    }
    if let problem = Self.fractionProblem(
      "perceptualPrecision",
      perceptualPrecision,
      meaning: "how close a pixel's colour must be to match; 0.98 allows a ΔE*94 of 2"
    ) {
      return problem
    }
    if let maxDifferentPixels, maxDifferentPixels < 0 {
      return """
        The image strategy's maxDifferentPixels is \(maxDifferentPixels), but it must be 0 or \
        more (the number of pixels that may fail; 0 allows none).
        """
    }
    if let mask = masks.first(where: { $0.width <= 0 || $0.height <= 0 }) {
      return """
        The image strategy's mask \(mask) covers no pixel: a mask's width and height must be \
        1 or more.
        """
    }
    return nil
  }

  /// The message for a mask that lies wholly outside `bitmap`, which the test cannot have meant.
  func maskProblem(for bitmap: Bitmap) -> String? {
    guard
      let mask = masks.first(where: {
        $0.clipped(toWidth: bitmap.width, height: bitmap.height) == nil
      })
    else { return nil }
    return """
      The image strategy's mask \(mask) lies outside the \(bitmap.width)×\(bitmap.height) image, \
      so it masks nothing.
      """
  }

  /// The warning for masks that cover every pixel of `bitmap`: the comparison passes whatever
  /// the image shows.
  func coverageWarning(for bitmap: Bitmap) -> String? {
    guard !masks.isEmpty else { return nil }
    let coverage = MaskCoverage(masks, width: bitmap.width, height: bitmap.height)
    guard coverage.pixelCount == bitmap.pixelCount else { return nil }
    return """
      The image strategy's masks cover all \(bitmap.width)×\(bitmap.height) pixels, so the \
      comparison checks only the image's size.
      """
  }

  /// Reports to the assertion taking a snapshot of `bitmap` what is wrong with these tolerances
  /// for it (it then fails and records nothing) or worth a warning; returns whether the snapshot
  /// can be used.
  func check(_ bitmap: Bitmap) -> Bool {
    if let problem = problem ?? maskProblem(for: bitmap) {
      UnavailableSnapshot.report(problem)
      return false
    }
    if let warning = coverageWarning(for: bitmap) { SnapshotWarning.report(warning) }
    return true
  }

  /// Whether `comparison` is within these tolerances: at least the fraction `precision` of the
  /// compared pixels match, and no more than `maxDifferentPixels` fail.
  func accepts(_ comparison: BitmapComparison) -> Bool {
    comparison.matches(precision: precision, maxDifferentPixels: maxDifferentPixels)
  }

  /// The comparison options these tolerances ask for.
  var comparisonOptions: BitmapComparison.Options {
    BitmapComparison.Options(
      perceptualPrecision: perceptualPrecision,
      ignoringAntialiasing: ignoringAntialiasing,
      masks: masks
    )
  }

  private static func fractionProblem(_ name: String, _ value: Float, meaning: String) -> String? {
    guard value.isNaN || !(0...1).contains(value) else { return nil }
    return """
      The image strategy's \(name) is \(value), but it must be a number from 0 through 1 \
      (\(meaning)).
      """
  }
}
