import CLibPNG
import Foundation

extension Bitmap {
  /// Encodes the bitmap as an 8-bit RGBA PNG.
  ///
  /// The bytes depend only on the pixels: no time, text or colour chunks are written, so the
  /// same bitmap always gives the same file. The compression favours speed
  /// (see ``PNGCompression/snapshot``), which matters more in a test suite than the last few
  /// percent of file size.
  ///
  /// - Throws: ``BitmapError/encodingFailed(reason:)`` with libpng's reason, which in practice
  ///   means memory ran out.
  /// - Complexity: O(*n*) in the number of pixels.
  public func pngData() throws -> Data {
    try pngData(compression: .snapshot)
  }

  func pngData(compression: PNGCompression) throws -> Data {
    var error = clibpng_error()
    var output: UnsafeMutablePointer<UInt8>?
    var outputSize = 0
    let status = rgbaBytes.withUnsafeBufferPointer { pixels in
      clibpng_encode_rgba(
        pixels.baseAddress,
        UInt32(width),
        UInt32(height),
        compression.level,
        compression.filters,
        compression.strategy,
        &output,
        &outputSize,
        &error
      )
    }
    guard status == CLIBPNG_OK, let output else {
      throw BitmapError.encodingFailed(reason: error.text)
    }
    // The C shim hands over a malloc'ed buffer; Data takes it without copying and frees it.
    return Data(bytesNoCopy: output, count: outputSize, deallocator: .free)
  }
}

/// zlib and PNG filter settings for encoding.
struct PNGCompression: Sendable {
  /// zlib's level, 0 (store) to 9 (smallest).
  var level: Int32
  /// A mask of `CLIBPNG_FILTER_*` row filters that libpng may choose from.
  var filters: Int32
  /// zlib's strategy (`CLIBPNG_ZLIB_*`).
  var strategy: Int32

  /// The setting used for snapshots: zlib level 2, no row filter, zlib's default strategy.
  ///
  /// Measured on 2048×2048 screenshot-like images (flat areas, text, a gradient header) against
  /// levels 1, 2, 3, 6, each single filter, adaptive filtering and the RLE strategy: level 2 without
  /// filtering was the fastest or close to it (adaptive filtering costs 2–4× the time) and smaller
  /// than level 1. See Documentation/Performance.md.
  static let snapshot = PNGCompression(
    level: 2,
    filters: Int32(CLIBPNG_FILTER_NONE),
    strategy: Int32(CLIBPNG_ZLIB_DEFAULT_STRATEGY)
  )
}
