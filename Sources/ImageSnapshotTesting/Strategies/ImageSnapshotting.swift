import Foundation
import SnapshotTesting

extension Snapshotting where Value == Bitmap, Format == Bitmap {
  /// Snapshots a bitmap as a PNG file and requires identical pixels.
  ///
  /// ```swift
  /// assertSnapshot(of: try renderChart(), as: .image)
  /// ```
  public static var image: Snapshotting {
    .image()
  }

  /// Snapshots a bitmap as a PNG file, with tolerances.
  ///
  /// Pull it back onto your own type to snapshot what it renders:
  ///
  /// ```swift
  /// extension Snapshotting where Value == Chart, Format == Bitmap {
  ///   static let image = Snapshotting<Bitmap, Bitmap>.image(perceptualPrecision: 0.98)
  ///     .pullback { chart in chart.render() }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - precision: The fraction of pixels that must match, 0...1.
  ///   - perceptualPrecision: How close a pixel's colour must be to match, 0...1; see
  ///     ``SnapshotTesting/Diffing/image(precision:perceptualPrecision:)``.
  public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Snapshotting {
    .init(
      pathExtension: "png",
      diffing: .image(precision: precision, perceptualPrecision: perceptualPrecision)
    )
  }

  /// Snapshots a bitmap as a PNG file, with tolerances for rendering noise.
  ///
  /// ```swift
  /// assertSnapshot(of: bitmap, as: .image(perceptualPrecision: 0.98, ignoringAntialiasing: true))
  /// assertSnapshot(of: bitmap, as: .image(maxDifferentPixels: 25))
  /// assertSnapshot(of: bitmap, as: .image(masks: [Bitmap.Region(x: 0, y: 0, width: 120, height: 20)]))
  /// ```
  ///
  /// See ``SnapshotTesting/Diffing/image(precision:perceptualPrecision:ignoringAntialiasing:maxDifferentPixels:masks:)``
  /// for what each parameter allows.
  public static func image(
    precision: Float = 1,
    perceptualPrecision: Float = 1,
    ignoringAntialiasing: Bool = false,
    maxDifferentPixels: Int? = nil,
    masks: [Bitmap.Region] = []
  ) -> Snapshotting {
    .init(
      pathExtension: "png",
      diffing: .image(
        precision: precision,
        perceptualPrecision: perceptualPrecision,
        ignoringAntialiasing: ignoringAntialiasing,
        maxDifferentPixels: maxDifferentPixels,
        masks: masks
      )
    )
  }
}
