import Foundation
import Testing

@testable import ImageSnapshotTesting

@Suite struct PNGEncodingTests {
  static func sample() throws -> Bitmap {
    try Bitmap(width: 37, height: 23) { x, y in
      RGBA(
        red: UInt8(x * 7 % 256),
        green: UInt8(y * 11 % 256),
        blue: 200,
        alpha: UInt8(x * y % 256)
      )
    }
  }

  @Test func roundTripKeepsEveryByteIncludingTranslucentPixels() throws {
    let bitmap = try Self.sample()
    #expect(try Bitmap(pngData: bitmap.pngData()) == bitmap)
  }

  @Test func samePixelsGiveTheSameBytes() throws {
    let first = try Self.sample().pngData()
    let second = try Self.sample().pngData()
    #expect(first == second)
    // Re-encoding a decoded file gives the file back: nothing time- or machine-dependent.
    #expect(try Bitmap(pngData: first).pngData() == first)
  }

  @Test func writesOnlyTheCriticalChunks() throws {
    let data = try Self.sample().pngData()
    #expect(chunkTypes(of: data) == ["IHDR", "IDAT", "IEND"])
  }

  @Test func encodingIsPinned() throws {
    // A 2×1 image encodes to these exact bytes; a change of settings or libpng shows up here.
    let bitmap = try Bitmap(width: 2, height: 1, rgbaBytes: [255, 0, 0, 255, 0, 0, 255, 128])
    let data = try bitmap.pngData()
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    // IHDR: width 2, height 1, depth 8, colour type 6 (RGBA), no interlacing.
    #expect([UInt8](data[16..<29]) == [0, 0, 0, 2, 0, 0, 0, 1, 8, 6, 0, 0, 0])
  }

  /// The four-letter types of the chunks in PNG data, in order.
  private func chunkTypes(of data: Data) -> [String] {
    let bytes = [UInt8](data)
    var types: [String] = []
    var offset = 8
    while offset + 8 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
      offset += 12 + length
    }
    return types
  }
}
