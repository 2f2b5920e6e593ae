import Foundation
import PNGCodec
import RunRecord

extension Bitmap {
  /// Decodes a PNG image.
  ///
  /// Every valid PNG is accepted: gray, gray with alpha, palette (with or without a transparency
  /// chunk), RGB and RGBA, at any bit depth, interlaced or not, whichever program wrote it. Pixels
  /// are converted to 8-bit RGBA with straight alpha; 16-bit samples are rounded to the nearest
  /// 8-bit value. Gamma and colour-profile chunks are ignored: samples are taken as sRGB, as they
  /// were written.
  ///
  /// ```swift
  /// let reference = try Bitmap(pngData: Data(contentsOf: url))
  /// ```
  ///
  /// - Parameter pngData: The bytes of a PNG file.
  /// - Throws: ``BitmapError``: ``BitmapError/emptyPNGData`` for no bytes,
  ///   ``BitmapError/gitLFSPointer`` for a Git LFS pointer file, ``BitmapError/tooLarge(width:height:)``
  ///   for a header beyond ``maximumSide`` or ``maximumPixelCount`` (refused before any pixel memory is
  ///   allocated), and ``BitmapError/invalidPNG(reason:)`` with the reason for anything else (not a
  ///   PNG, truncated data, a bad checksum, corrupt compressed data, a palette of more than 256
  ///   colours).
  /// - Complexity: O(*n*) in the size of the data and the number of pixels.
  public init(pngData: Data) throws {
    guard !pngData.isEmpty else { throw BitmapError.emptyPNGData }
    if GitLFSPointer.matches(pngData) { throw BitmapError.gitLFSPointer }
    let decoded: RGBAImage
    do {
      decoded = try PNGDecoder.decode(pngData)
    } catch {
      throw BitmapError(error)
    }
    self.init(validWidth: decoded.width, height: decoded.height, rgbaBytes: decoded.bytes)
  }
}

extension BitmapError {
  /// The codec's error in the words of the image strategies.
  init(_ error: PNGCodecError) {
    switch error {
    case .empty: self = .emptyPNGData
    case .tooLarge(let width, let height): self = .tooLarge(width: width, height: height)
    case .invalid(let reason): self = .invalidPNG(reason: reason)
    case .encodingFailed(let reason): self = .encodingFailed(reason: reason)
    case .pixelsChanged: self = .encodingFailed(reason: "the encoded pixels differ")
    }
  }
}
