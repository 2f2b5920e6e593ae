import SnapshotTesting

/// Checks the tolerances an image strategy is given. A value outside `0...1`, or NaN, is a
/// mistake in the test: the assertion fails naming the parameter, even when the images are
/// identical, rather than letting a black pixel on white pass.
enum ImagePrecision {
  /// The message for the first tolerance that is out of range, or `nil` when both are valid.
  static func problem(precision: Float, perceptualPrecision: Float) -> String? {
    if let problem = problem(
      "precision",
      precision,
      meaning: "the fraction of pixels that must match"
    ) {
      return problem
    }
    return problem(
      "perceptualPrecision",
      perceptualPrecision,
      meaning: "how close a pixel's colour must be to match; 0.98 allows a ΔE*94 of 2"
    )
  }

  private static func problem(_ name: String, _ value: Float, meaning: String) -> String? {
    guard value.isNaN || !(0...1).contains(value) else { return nil }
    return """
      The image strategy's \(name) is \(value), but it must be a number from 0 through 1 \
      (\(meaning)).
      """
  }
}
