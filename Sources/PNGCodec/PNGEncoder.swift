import CLibPNG
import Foundation

/// The only caller of libpng's writer, through the C shim that owns its `setjmp`.
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): it lends the shim the pixels
/// as a pointer and takes the encoded bytes back, and lengths are checked on both sides.
package enum PNGEncoder {
  /// The smallest PNG the shim finds for the pixels, which decodes to exactly the same bytes.
  ///
  /// The colour type is reduced as far as the pixels allow (gray, a palette of up to 256 colours
  /// with a tRNS chunk for alpha, RGB, at 1, 2, 4 or 8 bits where they fit); the rows are then
  /// filtered eight ways (each of PNG's five filters on every row, and a choice per row by the
  /// smallest sum of signed bytes, the smallest entropy and the fewest distinct byte pairs) and
  /// compressed with libdeflate: every way at level 12 for small images (up to 64 KiB of filtered
  /// data), else ranked at level 8 and only the best (and the second within 1%) at level 12 (11
  /// above 4 MiB). zlib at level 9 also gets the winner's rows where it is cheap, and the smaller
  /// stream is kept, so that flat screenshots are never larger than zlib made them. The shim
  /// writes the chunks itself, only IHDR, PLTE, tRNS, IDAT and IEND, so the same pixels always
  /// give the same bytes (with the same libdeflate and zlib).
  ///
  /// - Parameter rgba: `width × height × 4` bytes, as ``RGBAImage/bytes``.
  /// - Complexity: O(*n*) in the number of pixels, with a constant of eight level-8 and one or
  ///   two level-12 (or 11) compressions; eight level-12 ones for images of at most 64 KiB.
  package static func smallest(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int)
    throws(PNGCodecError) -> Data
  {
    try encode(rgba: rgba, width: width, height: height) { pixels, output, size, error in
      clibpng_encode_smallest(pixels, UInt32(width), UInt32(height), output, size, error)
    }
  }

  /// The smallest PNG libpng and zlib write: how ``smallest(rgba:width:height:)`` encoded before
  /// it used libdeflate (zlib level 9, filters off or libpng's adaptive choice), kept so that
  /// tests and benchmarks can hold the current encoding to it.
  package static func smallestWithLibpng(
    rgba: UnsafeBufferPointer<UInt8>,
    width: Int,
    height: Int
  ) throws(PNGCodecError) -> Data {
    try encode(rgba: rgba, width: width, height: height) { pixels, output, size, error in
      clibpng_encode_smallest_libpng(pixels, UInt32(width), UInt32(height), output, size, error)
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

  /// ``smallest(rgba:width:height:)`` of an array's bytes.
  package static func smallest(rgba: [UInt8], width: Int, height: Int) throws(PNGCodecError)
    -> Data
  {
    try withPixels(rgba) { pixels throws(PNGCodecError) in
      try smallest(rgba: pixels, width: width, height: height)
    }
  }

  /// ``smallestWithLibpng(rgba:width:height:)`` of an array's bytes.
  package static func smallestWithLibpng(rgba: [UInt8], width: Int, height: Int)
    throws(PNGCodecError) -> Data
  {
    try withPixels(rgba) { pixels throws(PNGCodecError) in
      try smallestWithLibpng(rgba: pixels, width: width, height: height)
    }
  }

  /// ``fixed(rgba:width:height:compression:)`` of an array's bytes.
  package static func fixed(
    rgba: [UInt8],
    width: Int,
    height: Int,
    compression: PNGCompression
  ) throws(PNGCodecError) -> Data {
    try withPixels(rgba) { pixels throws(PNGCodecError) in
      try fixed(rgba: pixels, width: width, height: height, compression: compression)
    }
  }

  /// The array's bytes as the buffer the C shim reads, for the length of `body`.
  private static func withPixels(
    _ rgba: [UInt8],
    _ body: (UnsafeBufferPointer<UInt8>) throws(PNGCodecError) -> Data
  ) throws(PNGCodecError) -> Data {
    let result = rgba.withUnsafeBufferPointer { pixels in
      Result { () throws(PNGCodecError) -> Data in try body(pixels) }
    }
    return try result.get()
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
