import CLibPNG
import Foundation

/// The only caller of libpng's decoder, through the C shim that owns its `setjmp`.
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): it lends the shim the file's
/// bytes and the pixel buffer as pointers, and lengths are checked on both sides of the call.
package enum PNGDecoder {
  /// Decodes any valid PNG to 8-bit RGBA: gray, gray with alpha, palette (with or without tRNS),
  /// RGB and RGBA, at any bit depth, interlaced or not; 16-bit samples are rounded to the nearest
  /// 8-bit value; gamma and colour-profile chunks are ignored.
  ///
  /// - Complexity: O(*n*) in the size of the data and the number of pixels.
  package static func decode(_ data: Data) throws(PNGCodecError) -> RGBAImage {
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(PNGCodecError) -> RGBAImage in
        try decode(bytes.bindMemory(to: UInt8.self))
      }
    }
    return try result.get()
  }

  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(PNGCodecError)
    -> RGBAImage
  {
    let (width, height, pixels) = try decode(bytes, sixteenBits: false)
    return RGBAImage(width: width, height: height, bytes: pixels)
  }

  /// Decodes any valid PNG to RGBA at full depth: 16-bit samples as they are, smaller ones
  /// widened the way viewers widen them (8-bit 0xAB as 0xABAB), so that two files compare equal
  /// exactly when every sample of every pixel is the same. Returns `width × height × 8` bytes of
  /// big-endian samples; gamma and colour-profile chunks are ignored, as by ``decode(_:)``.
  ///
  /// - Complexity: O(*n*) in the size of the data and the number of pixels.
  package static func decodeFullDepth(_ data: Data) throws(PNGCodecError)
    -> (width: Int, height: Int, samples: [UInt8])
  {
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(PNGCodecError) -> (Int, Int, [UInt8]) in
        try decode(bytes.bindMemory(to: UInt8.self), sixteenBits: true)
      }
    }
    return try result.get()
  }

  private static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>,
    sixteenBits: Bool
  ) throws(PNGCodecError) -> (Int, Int, [UInt8]) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .empty }
    var error = clibpng_error()
    var decoder: OpaquePointer?
    var width: UInt32 = 0
    var height: UInt32 = 0
    let create = sixteenBits ? clibpng_decoder_create_rgba16 : clibpng_decoder_create
    let status = create(
      base,
      bytes.count,
      UInt32(PNGLimits.maximumSide),
      UInt64(PNGLimits.maximumPixelCount),
      &decoder,
      &width,
      &height,
      &error
    )
    defer { clibpng_decoder_destroy(decoder) }
    switch status {
    case CLIBPNG_OK:
      break
    case CLIBPNG_ERROR_TOO_LARGE:
      throw .tooLarge(width: Int(width), height: Int(height))
    default:
      throw .invalid(reason: error.text)
    }
    guard let decoder, width > 0, height > 0 else {
      throw .invalid(reason: "the header announces an empty image")
    }
    let byteCount = Int(width) * Int(height) * (sixteenBits ? 8 : 4)
    var readStatus = CLIBPNG_OK
    let rgbaBytes = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
      // On failure the bytes are discarded below, but they are zeroed so the array is never read
      // uninitialised.
      readStatus = clibpng_decoder_read_rgba(decoder, buffer.baseAddress, byteCount, &error)
      if readStatus != CLIBPNG_OK, let base = buffer.baseAddress {
        base.initialize(repeating: 0, count: byteCount)
      }
      initializedCount = byteCount
    }
    guard readStatus == CLIBPNG_OK else {
      throw .invalid(reason: error.text)
    }
    return (Int(width), Int(height), rgbaBytes)
  }
}

extension clibpng_error {
  /// The NUL-terminated message that the C shim copied from libpng.
  var text: String {
    withUnsafeBytes(of: message) { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      let length = bytes.firstIndex(of: 0) ?? bytes.count
      return String(decoding: bytes[..<length], as: UTF8.self)
    }
  }
}
