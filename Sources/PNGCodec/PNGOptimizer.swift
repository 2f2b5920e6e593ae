import Foundation

/// What re-encoding a PNG file would give.
package struct PNGOptimization: Equatable, Sendable {
  /// The size of the file as it is.
  package var originalSize: Int
  /// The smallest encoding of its pixels, checked to decode to the same bytes.
  package var optimized: Data

  /// Whether the file would shrink.
  package var shrinks: Bool { optimized.count < originalSize }
  /// The bytes it would lose (zero or negative when it would not shrink).
  package var savedBytes: Int { originalSize - optimized.count }
}

/// Recompresses existing PNG files without changing their pixels.
package enum PNGOptimizer {
  /// Decodes `data`, encodes the pixels with ``PNGEncoder/smallest(rgba:width:height:)``, decodes
  /// that again and compares the RGBA bytes.
  ///
  /// Only what this package reads of a PNG survives: the 8-bit RGBA pixels. A 16-bit file becomes
  /// 8-bit (it is rounded to 8 bits whenever it is read anyway), and ancillary chunks (gamma,
  /// colour profiles, text, times) are dropped.
  ///
  /// - Throws: ``PNGCodecError``: the file's own decoding error, or
  ///   ``PNGCodecError/pixelsChanged`` if the new encoding does not give the same pixels back.
  /// - Complexity: O(*n*) in the number of pixels, the cost of two decodings and an encoding.
  package static func optimize(_ data: Data) throws(PNGCodecError) -> PNGOptimization {
    let original = try PNGDecoder.decode(data)
    let result = original.bytes.withUnsafeBufferPointer { pixels in
      Result { () throws(PNGCodecError) -> Data in
        try PNGEncoder.smallest(rgba: pixels, width: original.width, height: original.height)
      }
    }
    let optimized = try result.get()
    guard try PNGDecoder.decode(optimized) == original else { throw .pixelsChanged }
    return PNGOptimization(originalSize: data.count, optimized: optimized)
  }
}
