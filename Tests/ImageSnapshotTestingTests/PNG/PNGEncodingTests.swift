import Foundation
import PNGCodec
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
    // Also for the files made by the larger images' path, which ranks the encodings on a sample
    // of rows first, and for each colour type.
    for bitmap in try [PNGEncodingTests.screenshot()] + Self.colourTypeCases.map({ try $0.make() })
    {
      let data = try bitmap.pngData()
      #expect(try bitmap.pngData() == data)
      #expect(try Bitmap(pngData: data).pngData() == data)
    }
  }

  @Test func writesOnlyTheCriticalChunksAndTheTransparencyChunk() throws {
    #expect(chunkTypes(of: try Self.sample().pngData()) == ["IHDR", "IDAT", "IEND"])
    let translucentPalette = try Bitmap(width: 32, height: 32) { x, y in
      let index = Self.scatter(x, y, 16)
      return RGBA(red: UInt8(index * 16), green: 10, blue: 99, alpha: index < 4 ? 128 : 255)
    }
    #expect(
      chunkTypes(of: try translucentPalette.pngData()) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]
    )
  }

  @Test func tinyImagesStayRGBAWhenAPaletteWouldCostMore() throws {
    // Two pixels: a palette and its tRNS chunk cost more than the 8 bytes of RGBA they replace.
    let bitmap = try Bitmap(width: 2, height: 1, rgbaBytes: [255, 0, 0, 255, 0, 0, 255, 128])
    let data = try bitmap.pngData()
    #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    // IHDR: width 2, height 1, depth 8, colour type 6 (RGBA), no interlacing.
    #expect([UInt8](data[16..<29]) == [0, 0, 0, 2, 0, 0, 0, 1, 8, 6, 0, 0, 0])
  }

  // MARK: Colour types

  struct ColourTypeCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// IHDR's colour type and bit depth that the pixels must be written with.
    var colourType: UInt8
    var bitDepth: UInt8
    var hasTransparencyChunk: Bool
    var pixel: @Sendable (_ x: Int, _ y: Int) -> RGBA

    var testDescription: String { name }

    func make() throws -> Bitmap { try Bitmap(width: 64, height: 48, pixel: pixel) }
  }

  /// A value in 0..<`count` that looks random, so that no row filter makes it trivial.
  static func scatter(_ x: Int, _ y: Int, _ count: Int) -> Int {
    (x &* 7919 &+ y &* 104_729 &+ (x * y) &* 31) % count
  }

  /// A value in 0..<`count` without a short period in either direction.
  static func hashed(_ x: Int, _ y: Int, _ count: Int) -> Int {
    var hash =
      UInt32(truncatingIfNeeded: x) &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: y) &* 0x85EB_CA77
    hash ^= hash >> 15
    hash &*= 0x2C1B_3C6D
    hash ^= hash >> 12
    return Int(hash % UInt32(count))
  }

  static let colourTypeCases: [ColourTypeCase] = [
    ColourTypeCase(name: "gray, 1 bit", colourType: 0, bitDepth: 1, hasTransparencyChunk: false) {
      x,
      y in scatter(x, y, 2) == 0 ? .black : .white
    },
    ColourTypeCase(name: "gray, 2 bits", colourType: 0, bitDepth: 2, hasTransparencyChunk: false) {
      x,
      y in
      let value = UInt8(scatter(x, y, 4) * 85)
      return RGBA(red: value, green: value, blue: value)
    },
    ColourTypeCase(name: "gray, 4 bits", colourType: 0, bitDepth: 4, hasTransparencyChunk: false) {
      x,
      y in
      let value = UInt8(scatter(x, y, 16) * 17)
      return RGBA(red: value, green: value, blue: value)
    },
    ColourTypeCase(name: "gray, 8 bits", colourType: 0, bitDepth: 8, hasTransparencyChunk: false) {
      x,
      y in
      let value = UInt8(scatter(x, y, 256))
      return RGBA(red: value, green: value, blue: value)
    },
    ColourTypeCase(
      name: "gray with one transparent gray",
      colourType: 0,
      bitDepth: 8,
      hasTransparencyChunk: true
    ) { x, y in
      let value = UInt8(scatter(x, y, 256))
      return value == 3
        ? RGBA(red: 3, green: 3, blue: 3, alpha: 0) : RGBA(red: value, green: value, blue: value)
    },
    ColourTypeCase(name: "gray and alpha", colourType: 4, bitDepth: 8, hasTransparencyChunk: false)
    { x, y in
      let value = UInt8(scatter(x, y, 256))
      return RGBA(red: value, green: value, blue: value, alpha: UInt8(scatter(y, x, 256)))
    },
    ColourTypeCase(name: "palette, 1 bit", colourType: 3, bitDepth: 1, hasTransparencyChunk: false)
    { x, y in
      scatter(x, y, 2) == 0 ? RGBA(red: 200, green: 30, blue: 40) : RGBA(red: 0, green: 90, blue: 0)
    },
    ColourTypeCase(name: "palette, 2 bits", colourType: 3, bitDepth: 2, hasTransparencyChunk: true)
    { x, y in
      let index = scatter(x, y, 4)
      return RGBA(red: UInt8(index * 60), green: 99, blue: 7, alpha: index == 0 ? 0 : 255)
    },
    ColourTypeCase(name: "palette, 4 bits", colourType: 3, bitDepth: 4, hasTransparencyChunk: false)
    { x, y in
      let index = scatter(x, y, 16)
      return RGBA(red: UInt8(index * 15), green: UInt8(255 - index * 9), blue: 128)
    },
    ColourTypeCase(name: "palette, 8 bits", colourType: 3, bitDepth: 8, hasTransparencyChunk: true)
    { x, y in
      // Hashed, not `scatter`: its period lets deflate find the RGBA rows' repeats as easily as
      // the indices', and RGBA, which needs no PLTE and tRNS chunks, would then be smaller.
      let index = hashed(x, y, 200)
      return RGBA(red: UInt8(index), green: UInt8(index / 2), blue: 9, alpha: UInt8(55 + index))
    },
    ColourTypeCase(name: "RGB", colourType: 2, bitDepth: 8, hasTransparencyChunk: false) { x, y in
      RGBA(red: UInt8(scatter(x, y, 256)), green: UInt8(scatter(y, x, 256)), blue: UInt8(x * 4))
    },
    ColourTypeCase(
      name: "RGB with one transparent colour",
      colourType: 2,
      bitDepth: 8,
      hasTransparencyChunk: true
    ) { x, y in
      x == y
        ? RGBA(red: 1, green: 2, blue: 3, alpha: 0)
        : RGBA(red: UInt8(scatter(x, y, 256)), green: UInt8(scatter(y, x, 256)), blue: 200)
    },
    ColourTypeCase(name: "RGBA", colourType: 6, bitDepth: 8, hasTransparencyChunk: false) { x, y in
      RGBA(
        red: UInt8(scatter(x, y, 256)),
        green: UInt8(scatter(y, x, 256)),
        blue: 200,
        alpha: UInt8(x * 4)
      )
    },
    ColourTypeCase(
      name: "RGBA: transparent pixels of different colours",
      colourType: 6,
      bitDepth: 8,
      hasTransparencyChunk: false
    ) { x, y in
      // A colour key would turn both transparent colours into one: alpha must stay a channel.
      RGBA(red: UInt8(scatter(x, y, 256)), green: UInt8(y), blue: 0, alpha: x < 2 ? 0 : 255)
    },
  ]

  @Test(arguments: colourTypeCases)
  func eachColourTypeGivesBackTheSameBytes(_ testCase: ColourTypeCase) throws {
    let bitmap = try testCase.make()
    let data = try bitmap.pngData()
    #expect(data[25] == testCase.colourType, "colour type")
    #expect(data[24] == testCase.bitDepth, "bit depth")
    #expect(chunkTypes(of: data).contains("tRNS") == testCase.hasTransparencyChunk)
    #expect(try Bitmap(pngData: data) == bitmap)
  }

  @Test func everySizeOfPaletteAndGrayRoundTrips() throws {
    // Every number of colours from 1 to 257, on both sides of each bit depth's limit, with odd
    // widths (packed rows that end mid-byte) and a translucent colour.
    for colours in [1, 2, 3, 4, 5, 15, 16, 17, 255, 256, 257] {
      for width in [1, 3, 9] {
        let bitmap = try Bitmap(width: width, height: 300) { x, y in
          let index = (x + y * width) % colours
          return RGBA(
            red: UInt8(index % 256),
            green: UInt8(index / 256),
            blue: 0,
            alpha: index == 1 ? 9 : 255
          )
        }
        #expect(
          try Bitmap(pngData: bitmap.pngData()) == bitmap,
          "\(colours) colours, width \(width)"
        )
        let gray = try Bitmap(width: width, height: 300) { x, y in
          let value = UInt8((x + y * width) % colours % 256)
          return RGBA(red: value, green: value, blue: value)
        }
        #expect(try Bitmap(pngData: gray.pngData()) == gray, "\(colours) grays, width \(width)")
      }
    }
  }

  @Test func aColourKeyIsNotUsedWhenAnOpaquePixelHasTheTransparentColour() throws {
    // More than 256 colours (no palette), one transparent colour that an opaque pixel also has.
    let bitmap = try Bitmap(width: 40, height: 40) { x, y in
      if x == 0 && y == 0 { return RGBA(red: 5, green: 5, blue: 6, alpha: 0) }
      if x == 1 && y == 0 { return RGBA(red: 5, green: 5, blue: 6) }
      return RGBA(red: UInt8(x * 6), green: UInt8(y * 6), blue: 6)
    }
    let data = try bitmap.pngData()
    #expect(data[25] == 6)
    #expect(try Bitmap(pngData: data) == bitmap)
  }

  // MARK: Size

  /// Like a screenshot: a gradient header, a flat sidebar, text-like marks on a light page.
  static func screenshot() throws -> Bitmap {
    try Bitmap(width: 320, height: 480) { x, y in
      if y < 44 { return RGBA(red: UInt8(30 + y), green: UInt8(60 + y), blue: UInt8(140 + y)) }
      if x < 60 { return RGBA(red: 236, green: 236, blue: 240) }
      let isText = y % 20 < 11 && x > 72 && x < 300 && scatter(x / 2, y, 5) < 2
      return isText ? RGBA(red: 28, green: 28, blue: 32) : RGBA(red: 252, green: 252, blue: 253)
    }
  }

  /// A floor, not the typical gain: this simple screenshot shrinks about 6.8 times; the
  /// benchmark's corpus of 24 images, text-heavy and noisy ones included, 1.6 times (see
  /// the Performance article).
  @Test func aScreenshotIsAtLeastTwiceSmallerThanBefore() throws {
    let bitmap = try Self.screenshot()
    let old = try bitmap.rgbaBytes.withUnsafeBufferPointer { pixels in
      try PNGEncoder.fixed(
        rgba: pixels,
        width: bitmap.width,
        height: bitmap.height,
        compression: .levelTwoUnfiltered
      )
    }
    let new = try bitmap.pngData()
    #expect(new.count * 2 <= old.count, "\(new.count) bytes now, \(old.count) before")
    #expect(try Bitmap(pngData: old) == Bitmap(pngData: new))
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
