/// Pixels as the codec hands them over: 8-bit RGBA with straight alpha, rows top to bottom, no
/// padding.
package struct RGBAImage: Equatable, Sendable {
  package var width: Int
  package var height: Int
  /// `width × height × 4` bytes.
  package var bytes: [UInt8]

  package init(width: Int, height: Int, bytes: [UInt8]) {
    self.width = width
    self.height = height
    self.bytes = bytes
  }
}
