import Foundation
import SnapshotTesting

extension Diffing where Value == Data {
  /// Compares PNG files by their decoded pixels, not their bytes; stores the bytes unchanged.
  ///
  /// Two files with the same pixels match even when their encoders, compression or metadata
  /// differ. Semantics and messages are those of
  /// ``SnapshotTesting/Diffing/image(precision:perceptualPrecision:)``.
  ///
  /// - Parameters:
  ///   - precision: The fraction of pixels that must match, 0...1.
  ///   - perceptualPrecision: How close a pixel's colour must be to match, 0...1.
  public static func png(precision: Float = 1, perceptualPrecision: Float = 1) -> Diffing {
    let image = Diffing<Bitmap>.image(
      precision: precision,
      perceptualPrecision: perceptualPrecision
    )
    let problem = ImageTolerances(precision: precision, perceptualPrecision: perceptualPrecision)
      .problem
    return .diff(
      toData: { data in
        if let problem { UnavailableSnapshot.report(problem) }
        return data
      },
      fromData: { $0 },
      diffV2: { referenceData, newData in
        if referenceData == newData { return nil }
        let reference = image.fromData(referenceData)
        let new: Bitmap
        do {
          new = try Bitmap(pngData: newData)
        } catch {
          let failure = error as? BitmapError ?? .invalidPNG(reason: "\(error)")
          return ("Newly-taken snapshot could not be decoded. \(failure.description)", [])
        }
        return image.diffV2(reference, new)
      }
    ).reviewedAsImages()
  }
}

extension Snapshotting where Value == Data, Format == Data {
  /// Snapshots PNG-encoded data, comparing decoded pixels and requiring them to be identical.
  ///
  /// Named `png` so that it never shadows `Snapshotting.data`, which compares
  /// bytes:
  ///
  /// ```swift
  /// assertSnapshot(of: try renderer.pngData(), as: .png)
  /// ```
  public static var png: Snapshotting {
    .png()
  }

  /// Snapshots PNG-encoded data, comparing decoded pixels with tolerances.
  ///
  /// - Parameters:
  ///   - precision: The fraction of pixels that must match, 0...1.
  ///   - perceptualPrecision: How close a pixel's colour must be to match, 0...1.
  public static func png(precision: Float = 1, perceptualPrecision: Float = 1) -> Snapshotting {
    .init(
      pathExtension: "png",
      diffing: .png(precision: precision, perceptualPrecision: perceptualPrecision)
    )
  }
}
