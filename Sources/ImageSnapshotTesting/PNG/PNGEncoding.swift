import Foundation
import PNGCodec

extension Bitmap {
  /// Encodes the bitmap as the smallest PNG this package finds that keeps every byte.
  ///
  /// The colour type is reduced as far as the pixels allow: gray, a palette of up to 256 colours
  /// (translucent ones through a tRNS chunk), RGB when every pixel is opaque, at 1, 2, 4 or 8
  /// bits a sample where they fit; RGBA otherwise. The rows are filtered several ways (each of
  /// PNG's five filters, and three per-row choices) and compressed with libdeflate at its
  /// strongest levels, and the smallest file is kept. The bytes depend only on the pixels (and
  /// the libdeflate version): no time, text or colour chunks are written, so the same bitmap
  /// always gives the same file. ``init(pngData:)`` gives the same bitmap back.
  ///
  /// ```swift
  /// let bitmap = try Bitmap(width: 2, height: 1, filledWith: .white)
  /// try bitmap.pngData()  // a 1-bit gray PNG
  /// ```
  ///
  /// - Throws: ``BitmapError/encodingFailed(reason:)`` with the encoder's reason, which in
  ///   practice means memory ran out.
  /// - Complexity: O(*n*) in the number of pixels, with the constant of one or two level-11 or
  ///   12 libdeflate compressions, eight for small images (see the Performance article of
  ///   `SnapshotTesting`).
  public func pngData() throws -> Data {
    do {
      return try PNGEncoder.smallest(rgba: rgbaBytes, width: width, height: height)
    } catch {
      throw BitmapError(error)
    }
  }
}

extension Bitmap {
  /// The smallest PNG libpng and zlib write, as ``pngData()`` did before it used libdeflate: for
  /// the benchmark that compares the two.
  @_spi(Benchmarks)
  public func pngDataWithLibpng() throws -> Data {
    do {
      return try PNGEncoder.smallestWithLibpng(rgba: rgbaBytes, width: width, height: height)
    } catch {
      throw BitmapError(error)
    }
  }
}

extension Bitmap {
  /// The bitmap as a PNG written for speed rather than size (RGBA, zlib level 2, no row filter):
  /// for the images a failure attaches only to be looked at, which no one keeps.
  func pngDataForViewing() throws -> Data {
    do {
      return try PNGEncoder.fixed(
        rgba: rgbaBytes,
        width: width,
        height: height,
        compression: .levelTwoUnfiltered
      )
    } catch {
      throw BitmapError(error)
    }
  }
}
