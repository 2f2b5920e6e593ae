import Foundation
import Testing

@testable import ImageSnapshotTesting

@Suite struct PNGDecodingTests {
  /// Every colour type, bit depth and interlacing that PNG allows, made by
  /// `__Fixtures__/PNG/make_fixtures.py` with the RGBA bytes they must decode to.
  static let colourTypeFixtures = [
    "gray1", "gray2", "gray2-interlaced", "gray4", "gray8", "gray8-trns", "gray16",
    "gray-alpha8", "gray-alpha16",
    "palette1", "palette2-trns", "palette4", "palette8-trns", "palette8-trns-interlaced",
    "rgb8", "rgb8-trns", "rgb8-gamma", "rgb16", "rgb16-interlaced",
    "rgba8", "rgba8-interlaced", "rgba16",
    // 20 palette entries, 4 of them used: legal enough for libpng, so it decodes.
    "palette8-unused-entries",
  ]

  @Test(arguments: colourTypeFixtures)
  func decodesEveryColourTypeToStraightRGBA8(name: String) throws {
    let bitmap = try Bitmap(pngData: Fixtures.data("PNG/\(name).png"))
    let expected = try [UInt8](Fixtures.data("PNG/\(name).rgba"))
    #expect(bitmap.width == (name == "palette8-unused-entries" ? 4 : 9))
    #expect(bitmap.height == (name == "palette8-unused-entries" ? 4 : 7))
    #expect(bitmap.rgbaBytes == expected)
  }

  @Test(arguments: colourTypeFixtures)
  func reencodingKeepsThePixels(name: String) throws {
    let bitmap = try Bitmap(pngData: Fixtures.data("PNG/\(name).png"))
    #expect(try Bitmap(pngData: bitmap.pngData()) == bitmap)
  }

  @Test func transparencyChunksBecomeAlpha() throws {
    // Pixel (0, 0) has the gray value named by tRNS; (1, 0) does not.
    let gray = try Bitmap(pngData: Fixtures.data("PNG/gray8-trns.png"))
    #expect(gray[x: 0, y: 0].alpha == 0)
    #expect(gray[x: 1, y: 0].alpha == 255)
    let rgb = try Bitmap(pngData: Fixtures.data("PNG/rgb8-trns.png"))
    #expect(rgb[x: 1, y: 1] == RGBA(red: 119, green: 232, blue: 89, alpha: 0))
  }

  @Test func gammaIsIgnored() throws {
    let plain = try Bitmap(pngData: Fixtures.data("PNG/rgb8.png"))
    let withGamma = try Bitmap(pngData: Fixtures.data("PNG/rgb8-gamma.png"))
    #expect(plain == withGamma)
  }

  // MARK: Bad input

  @Test func emptyData() {
    #expect(throws: BitmapError.emptyPNGData) { try Bitmap(pngData: Data()) }
    #expect(BitmapError.emptyPNGData.description == "The PNG data is empty (0 bytes).")
  }

  @Test func gitLFSPointerIsNamed() {
    let pointer = Data(
      """
      version https://git-lfs.github.com/spec/v1
      oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
      size 12345

      """.utf8
    )
    #expect(throws: BitmapError.gitLFSPointer) { try Bitmap(pngData: pointer) }
    #expect(
      BitmapError.gitLFSPointer.description
        == """
        The file is a Git LFS pointer, not a PNG: the image itself was not fetched. \
        Run `git lfs pull` (and check that Git LFS is installed where the tests run).
        """
    )
  }

  @Test(arguments: [
    Data("GIF89a, not a PNG at all".utf8),
    Data([0x89, 0x50, 0x4E]),
    Data("{\"json\": true}".utf8),
  ])
  func notAPNG(data: Data) {
    #expect(throws: BitmapError.invalidPNG(reason: "the PNG signature is missing")) {
      try Bitmap(pngData: data)
    }
  }

  @Test func notAPNGMessage() {
    #expect(
      BitmapError.invalidPNG(reason: "the PNG signature is missing").description
        == "The data is not a valid PNG: the PNG signature is missing."
    )
  }

  @Test(arguments: [8, 20, 33, 60, 100])
  func truncatedData(length: Int) throws {
    let complete = try Fixtures.data("PNG/rgba8.png")
    #expect(throws: BitmapError.invalidPNG(reason: "the data ends early (truncated file)")) {
      try Bitmap(pngData: complete.prefix(length))
    }
  }

  @Test func truncatedJustBeforeTheEnd() throws {
    let complete = try Fixtures.data("PNG/rgba8.png")
    #expect(throws: BitmapError.invalidPNG(reason: "the data ends early (truncated file)")) {
      try Bitmap(pngData: complete.dropLast(1))
    }
  }

  @Test func badChecksumInTheHeader() throws {
    var data = try Fixtures.data("PNG/rgba8.png")
    data[29] ^= 0xFF  // the first byte of IHDR's CRC
    #expect(throws: BitmapError.invalidPNG(reason: "IHDR: CRC error")) {
      try Bitmap(pngData: data)
    }
  }

  @Test func badChecksumInThePixelData() throws {
    var data = try Fixtures.data("PNG/rgba8.png")
    // The IDAT chunk's CRC is the four bytes before IEND's 12.
    data[data.count - 13] ^= 0xFF
    #expect(throws: BitmapError.invalidPNG(reason: "IDAT: CRC error")) {
      try Bitmap(pngData: data)
    }
  }

  @Test func corruptCompressedData() throws {
    #expect(throws: BitmapError.invalidPNG(reason: "IDAT: invalid block type")) {
      try Bitmap(pngData: Fixtures.data("PNG/bad-zlib.png"))
    }
  }

  @Test func absurdHeaderSizesAreRefusedBeforeAllocating() throws {
    #expect(throws: BitmapError.tooLarge(width: 100_000, height: 1)) {
      try Bitmap(pngData: Fixtures.data("PNG/bad-huge-side.png"))
    }
    #expect(throws: BitmapError.tooLarge(width: 10_000, height: 10_000)) {
      try Bitmap(pngData: Fixtures.data("PNG/bad-huge-area.png"))
    }
  }

  @Test func zeroWidthHeader() throws {
    #expect(throws: BitmapError.invalidPNG(reason: "Invalid IHDR data")) {
      try Bitmap(pngData: Fixtures.data("PNG/bad-zero-width.png"))
    }
  }

  @Test(arguments: [
    (
      "bad-palette-300-colours",
      "the palette (PLTE chunk) claims 300 colours, but a palette holds 1 to 256"
    ),
    (
      "bad-palette-ragged",
      "the palette (PLTE chunk) is 10 bytes long, not a whole number of 3-byte colours"
    ),
    (
      "bad-palette-16-bit",
      "a palette image has a bit depth of 1, 2, 4 or 8, but the header says 16"
    ),
  ])
  func paletteClaimingMoreThan256ColoursIsRefused(name: String, reason: String) throws {
    #expect(throws: BitmapError.invalidPNG(reason: reason)) {
      try Bitmap(pngData: Fixtures.data("PNG/\(name).png"))
    }
  }
}
