import Foundation

/// Why a ``Bitmap`` could not be made, read or written.
///
/// Its ``description`` is a sentence meant for the test log:
///
/// ```swift
/// do { _ = try Bitmap(pngData: Data()) } catch { print(error) }
/// // The PNG data is empty (0 bytes).
/// ```
public enum BitmapError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  /// A width or height of zero or less.
  case invalidSize(width: Int, height: Int)
  /// An image larger than ``Bitmap/maximumSide`` or ``Bitmap/maximumPixelCount``.
  case tooLarge(width: Int, height: Int)
  /// Raw bytes whose count is not `width × height × 4`.
  case byteCountMismatch(width: Int, height: Int, byteCount: Int)
  /// PNG data of zero bytes.
  case emptyPNGData
  /// A Git LFS pointer file in place of the image it points to.
  case gitLFSPointer
  /// Data that libpng could not decode, with libpng's reason.
  case invalidPNG(reason: String)
  /// An encoding failure reported by libpng.
  case encodingFailed(reason: String)

  /// What went wrong, in a sentence that names the size or the reason.
  public var description: String {
    switch self {
    case .invalidSize(let width, let height):
      return "A bitmap must be at least 1×1 pixel, not \(width)×\(height)."
    case .tooLarge(let width, let height):
      return """
        A bitmap of \(width)×\(height) pixels is too large: the limits are \(Bitmap.maximumSide) \
        pixels a side and \(Bitmap.maximumPixelCount) pixels in all.
        """
    case .byteCountMismatch(let width, let height, let byteCount):
      return """
        A \(width)×\(height) RGBA bitmap needs \(width * height * 4) bytes (width × height × 4), \
        not \(byteCount).
        """
    case .emptyPNGData:
      return "The PNG data is empty (0 bytes)."
    case .gitLFSPointer:
      return """
        The file is a Git LFS pointer, not a PNG: the image itself was not fetched. \
        Run `git lfs pull` (and check that Git LFS is installed where the tests run).
        """
    case .invalidPNG(let reason):
      return "The data is not a valid PNG: \(reason)."
    case .encodingFailed(let reason):
      return "The bitmap could not be encoded as PNG: \(reason)."
    }
  }

  /// The same sentence as ``description``.
  public var errorDescription: String? { description }
}
