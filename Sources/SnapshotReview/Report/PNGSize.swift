import Foundation

/// A PNG's width and height, read from its header without decoding it, so that the report can
/// scale small snapshots up and needs no image library.
struct PNGSize: Equatable {
  var width: Int
  var height: Int

  /// `nil` unless `data` starts with the PNG signature and an `IHDR` chunk.
  init?(_ data: Data) {
    let bytes = [UInt8](data.prefix(24))
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count == 24, Array(bytes[0..<8]) == signature,
      Array(bytes[12..<16]) == Array("IHDR".utf8)
    else { return nil }
    func bigEndian(_ offset: Int) -> Int {
      bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    width = bigEndian(16)
    height = bigEndian(20)
    guard width > 0, height > 0 else { return nil }
  }

  /// The CSS width to show the image at: small snapshots scaled up by a whole factor (crisp
  /// pixels), large ones at their size (the page shrinks them to fit).
  var displayWidth: Int {
    let factor = max(1, min(12, 240 / max(width, 1)))
    return width * factor
  }
}
