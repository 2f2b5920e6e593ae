import CLibPNG
import Foundation

/// The only caller of libpng's writer, through the C shim that owns its `setjmp`.
package enum PNGEncoder {
  /// The smallest PNG the shim finds for the pixels, which decodes to exactly the same bytes.
  ///
  /// The colour type is reduced as far as the pixels allow (gray, a palette of up to 256 colours
  /// with a tRNS chunk for alpha, RGB, at 1, 2, 4 or 8 bits where they fit); the rows are then
  /// compressed at zlib level 9 with row filters off and with libpng's adaptive choice, under
  /// zlib's default and filtered strategies, and the smallest file is kept. Images above 65,536
  /// pixels rank those choices on an eighth of their rows first and encode only the best (and
  /// any within 3% of it) in full. Only IHDR, PLTE, tRNS, IDAT and IEND are written, so the same
  /// pixels always give the same bytes (with the same libpng and zlib).
  ///
  /// - Parameter rgba: `width × height × 4` bytes, as ``RGBAImage/bytes``.
  /// - Complexity: O(*n*) in the number of pixels, with a constant of a few level-9 compressions.
  package static func smallest(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int)
    throws(PNGCodecError) -> Data
  {
    try encode(rgba: rgba, width: width, height: height) { pixels, output, size, error in
      clibpng_encode_smallest(pixels, UInt32(width), UInt32(height), output, size, error)
    }
  }

  /// RGBA at fixed zlib and filter settings, without reducing the colour type: how references
  /// were written before the smallest encoding, kept for comparisons.
  package static func fixed(
    rgba: UnsafeBufferPointer<UInt8>,
    width: Int,
    height: Int,
    compression: PNGCompression
  ) throws(PNGCodecError) -> Data {
    try encode(rgba: rgba, width: width, height: height) { pixels, output, size, error in
      clibpng_encode_rgba(
        pixels,
        UInt32(width),
        UInt32(height),
        compression.level,
        compression.filters,
        compression.strategy,
        output,
        size,
        error
      )
    }
  }

  private static func encode(
    rgba: UnsafeBufferPointer<UInt8>,
    width: Int,
    height: Int,
    call: (
      UnsafePointer<UInt8>, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
      UnsafeMutablePointer<Int>, UnsafeMutablePointer<clibpng_error>
    ) -> clibpng_status
  ) throws(PNGCodecError) -> Data {
    guard width > 0, height > 0, width <= PNGLimits.maximumSide, height <= PNGLimits.maximumSide,
      rgba.count == width * height * 4, let pixels = rgba.baseAddress
    else {
      throw .encodingFailed(reason: "the pixel buffer does not fit a \(width)×\(height) image")
    }
    var error = clibpng_error()
    var output: UnsafeMutablePointer<UInt8>?
    var outputSize = 0
    let status = call(pixels, &output, &outputSize, &error)
    guard status == CLIBPNG_OK, let output else {
      throw .encodingFailed(reason: error.text)
    }
    // The C shim hands over a malloc'ed buffer; Data takes it without copying and frees it.
    return Data(bytesNoCopy: output, count: outputSize, deallocator: .free)
  }
}

/// zlib and PNG filter settings for ``PNGEncoder/fixed(rgba:width:height:compression:)``.
package struct PNGCompression: Sendable {
  /// zlib's level, 0 (store) to 9 (smallest).
  package var level: Int32
  /// A mask of `CLIBPNG_FILTER_*` row filters that libpng may choose from.
  package var filters: Int32
  /// zlib's strategy (`CLIBPNG_ZLIB_*`).
  package var strategy: Int32

  package init(level: Int32, filters: Int32, strategy: Int32) {
    self.level = level
    self.filters = filters
    self.strategy = strategy
  }

  /// What references were written with before: zlib level 2, no row filter, zlib's default
  /// strategy. Fast, and about 1.6 times the size of the smallest encoding on screenshot-like
  /// images.
  package static let levelTwoUnfiltered = PNGCompression(
    level: 2,
    filters: Int32(CLIBPNG_FILTER_NONE),
    strategy: Int32(CLIBPNG_ZLIB_DEFAULT_STRATEGY)
  )
}
