import CLibPNG
import Foundation
import RunRecord

extension Bitmap {
  /// Decodes a PNG image.
  ///
  /// Every valid PNG is accepted: gray, gray with alpha, palette (with or without a transparency
  /// chunk), RGB and RGBA, at any bit depth, interlaced or not. Pixels are converted to 8-bit RGBA
  /// with straight alpha; 16-bit samples are rounded to the nearest 8-bit value. Gamma and
  /// colour-profile chunks are ignored: samples are taken as sRGB, as they were written.
  ///
  /// ```swift
  /// let reference = try Bitmap(pngData: Data(contentsOf: url))
  /// ```
  ///
  /// - Parameter pngData: The bytes of a PNG file.
  /// - Throws: ``BitmapError``: ``BitmapError/emptyPNGData`` for no bytes,
  ///   ``BitmapError/gitLFSPointer`` for a Git LFS pointer file, ``BitmapError/tooLarge(width:height:)``
  ///   for a header beyond ``maximumSide`` or ``maximumPixelCount`` (refused before any pixel memory is
  ///   allocated), and ``BitmapError/invalidPNG(reason:)`` with libpng's reason for anything else
  ///   (not a PNG, truncated data, a bad checksum, corrupt compressed data).
  /// - Complexity: O(*n*) in the size of the data and the number of pixels.
  public init(pngData: Data) throws {
    guard !pngData.isEmpty else { throw BitmapError.emptyPNGData }
    if GitLFSPointer.matches(pngData) { throw BitmapError.gitLFSPointer }
    let decoded = try pngData.withUnsafeBytes { bytes in
      try PNGDecoder.decode(bytes.bindMemory(to: UInt8.self))
    }
    self.init(validWidth: decoded.width, height: decoded.height, rgbaBytes: decoded.rgbaBytes)
  }
}

/// The only place that calls libpng's decoder, through the C shim that owns its `setjmp`.
enum PNGDecoder {
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> (
    width: Int, height: Int, rgbaBytes: [UInt8]
  ) {
    guard let base = bytes.baseAddress else { throw BitmapError.emptyPNGData }
    var error = clibpng_error()
    var decoder: OpaquePointer?
    var width: UInt32 = 0
    var height: UInt32 = 0
    let status = clibpng_decoder_create(
      base,
      bytes.count,
      UInt32(Bitmap.maximumSide),
      UInt64(Bitmap.maximumPixelCount),
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
      throw BitmapError.tooLarge(width: Int(width), height: Int(height))
    default:
      throw BitmapError.invalidPNG(reason: error.text)
    }
    guard let decoder, width > 0, height > 0 else {
      throw BitmapError.invalidPNG(reason: "the header announces an empty image")
    }
    let byteCount = Int(width) * Int(height) * 4
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
      throw BitmapError.invalidPNG(reason: error.text)
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
