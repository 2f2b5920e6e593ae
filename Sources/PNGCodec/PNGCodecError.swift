/// Why PNG data could not be decoded, encoded or optimised. Callers turn it into their own words:
/// `BitmapError` for the image strategies, a line of the `optimize` command's output.
package enum PNGCodecError: Error, Equatable, Sendable {
  /// Zero bytes.
  case empty
  /// A header announcing more than ``PNGLimits/maximumSide`` pixels a side or
  /// ``PNGLimits/maximumPixelCount`` in all; refused before any pixel memory is allocated.
  case tooLarge(width: Int, height: Int)
  /// Data libpng (or the shim's own header check) rejects, with the reason.
  case invalid(reason: String)
  /// An encoding failure, which in practice means memory ran out.
  case encodingFailed(reason: String)
  /// Re-encoded data that did not decode to the same pixels. Never expected; checked because a
  /// file is only ever replaced by one that gives the same pixels.
  case pixelsChanged
}

/// The largest images decoded: the same limits whoever reads the file.
package enum PNGLimits {
  /// The widest or tallest image accepted: 65,536 pixels.
  package static let maximumSide = 1 << 16
  /// The most pixels in one image: 2²⁶ (an 8192×8192 image, 256 MiB of RGBA).
  package static let maximumPixelCount = 1 << 26
}
