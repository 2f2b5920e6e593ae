import Foundation

/// The chunks of a PNG file, by type, in the order they appear; read without decoding any.
///
/// ```swift
/// let chunks = PNGChunkList(data)
/// chunks?.types  // ["IHDR", "gAMA", "IDAT", "IEND"]
/// ```
///
/// Only the framing is read (length, type, and a length that fits the data); the CRCs and the
/// contents are libpng's to check when the file is decoded.
package struct PNGChunkList: Equatable, Sendable {
  /// Each chunk's four-letter type, in order.
  package var types: [String]
  /// The bits per sample that the header announces (1, 2, 4, 8 or 16).
  package var bitDepth: Int

  package init(types: [String], bitDepth: Int) {
    self.types = types
    self.bitDepth = bitDepth
  }

  /// Lists the chunks of `data`; `nil` when the signature, the header or a chunk's framing is
  /// broken.
  ///
  /// - Complexity: O(*c*) in the number of chunks.
  package init?(_ data: Data) {
    let bytes = [UInt8](data)
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.starts(with: signature) else { return nil }
    var types: [String] = []
    var bitDepth: Int?
    var offset = signature.count
    while bytes.count - offset >= 12 {
      let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      guard length <= bytes.count - offset - 12 else { return nil }
      if type == "IHDR", length == 13 { bitDepth = Int(bytes[offset + 16]) }
      types.append(type)
      offset += 12 + length
      if type == "IEND" { break }
    }
    guard let bitDepth, types.first == "IHDR" else { return nil }
    self.types = types
    self.bitDepth = bitDepth
  }
}
