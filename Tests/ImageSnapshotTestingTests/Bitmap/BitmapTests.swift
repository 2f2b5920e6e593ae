import Testing

@testable import ImageSnapshotTesting

@Suite struct BitmapTests {
  @Test func rawBytesAreKeptInRowMajorRGBAOrder() throws {
    let bytes: [UInt8] = [
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
      13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
    ]
    let bitmap = try Bitmap(width: 3, height: 2, rgbaBytes: bytes)
    #expect(bitmap.width == 3)
    #expect(bitmap.height == 2)
    #expect(bitmap.pixelCount == 6)
    #expect(bitmap.rgbaBytes == bytes)
    #expect(bitmap[x: 1, y: 0] == RGBA(red: 5, green: 6, blue: 7, alpha: 8))
    #expect(bitmap[x: 0, y: 1] == RGBA(red: 13, green: 14, blue: 15, alpha: 16))
    #expect(bitmap[x: 2, y: 1] == RGBA(red: 21, green: 22, blue: 23, alpha: 24))
  }

  @Test func wrongByteCountIsRefusedWithTheExpectedCount() {
    #expect(throws: BitmapError.byteCountMismatch(width: 2, height: 2, byteCount: 15)) {
      try Bitmap(width: 2, height: 2, rgbaBytes: [UInt8](repeating: 0, count: 15))
    }
    let error = BitmapError.byteCountMismatch(width: 2, height: 2, byteCount: 15)
    #expect(
      error.description == "A 2×2 RGBA bitmap needs 16 bytes (width × height × 4), not 15."
    )
  }

  @Test(arguments: [(0, 1), (1, 0), (-3, 4), (4, -1)])
  func nonPositiveSizesAreRefused(width: Int, height: Int) {
    #expect(throws: BitmapError.invalidSize(width: width, height: height)) {
      try Bitmap(width: width, height: height, filledWith: .white)
    }
    #expect(throws: BitmapError.invalidSize(width: width, height: height)) {
      try Bitmap(width: width, height: height, rgbaBytes: [])
    }
  }

  @Test func invalidSizeMessage() {
    #expect(
      BitmapError.invalidSize(width: 0, height: 5).description
        == "A bitmap must be at least 1×1 pixel, not 0×5."
    )
  }

  @Test func absurdSizesAreRefusedBeforeAllocating() {
    // Would be 2^62 bytes if allocated: the check must come first.
    #expect(throws: BitmapError.tooLarge(width: 1 << 30, height: 1 << 30)) {
      try Bitmap(width: 1 << 30, height: 1 << 30, filledWith: .white)
    }
    #expect(throws: BitmapError.tooLarge(width: 65_537, height: 1)) {
      try Bitmap(width: 65_537, height: 1, filledWith: .white)
    }
    #expect(throws: BitmapError.tooLarge(width: 8193, height: 8192)) {
      try Bitmap(width: 8193, height: 8192, rgbaBytes: [])
    }
    #expect(
      BitmapError.tooLarge(width: 8193, height: 8192).description
        == """
        A bitmap of 8193×8192 pixels is too large: the limits are 65536 pixels a side and \
        67108864 pixels in all.
        """
    )
  }

  @Test func largestAllowedSideIsAccepted() throws {
    let bitmap = try Bitmap(width: Bitmap.maximumSide, height: 1, filledWith: .black)
    #expect(bitmap.rgbaBytes.count == Bitmap.maximumSide * 4)
  }

  @Test func fillColourFillsEveryPixel() throws {
    let color = RGBA(red: 10, green: 20, blue: 30, alpha: 40)
    let bitmap = try Bitmap(width: 3, height: 2, filledWith: color)
    #expect(bitmap.rgbaBytes == [UInt8](repeating: 0, count: 6).flatMap { _ in [10, 20, 30, 40] })
    #expect(try Bitmap(width: 1, height: 1).rgbaBytes == [0, 0, 0, 0])
  }

  @Test func settingAPixelChangesOnlyThatPixel() throws {
    var bitmap = try Bitmap(width: 2, height: 2, filledWith: .white)
    let copy = bitmap
    bitmap[x: 1, y: 1] = RGBA(red: 1, green: 2, blue: 3, alpha: 4)
    #expect(bitmap[x: 1, y: 1] == RGBA(red: 1, green: 2, blue: 3, alpha: 4))
    #expect(bitmap[x: 0, y: 1] == .white)
    #expect(Array(bitmap.rgbaBytes[12...]) == [1, 2, 3, 4])
    #expect(copy[x: 1, y: 1] == .white, "a copy keeps its own pixels")
    #expect(copy != bitmap)
  }

  @Test func pixelOutsideTheImageIsNil() throws {
    let bitmap = try Bitmap(width: 2, height: 3, filledWith: .black)
    #expect(bitmap.pixel(x: 1, y: 2) == .black)
    #expect(bitmap.pixel(x: 2, y: 0) == nil)
    #expect(bitmap.pixel(x: 0, y: 3) == nil)
    #expect(bitmap.pixel(x: -1, y: 0) == nil)
  }

  @Test func generatingInitialiserVisitsEveryPosition() throws {
    let bitmap = try Bitmap(width: 3, height: 2) { x, y in
      RGBA(red: UInt8(x), green: UInt8(y), blue: 9)
    }
    #expect(bitmap[x: 2, y: 1] == RGBA(red: 2, green: 1, blue: 9))
    #expect(bitmap[x: 0, y: 1] == RGBA(red: 0, green: 1, blue: 9))
  }

  @Test func equalityComparesSizeAndPixels() throws {
    let a = try Bitmap(width: 2, height: 1, filledWith: .white)
    #expect(a == (try Bitmap(width: 2, height: 1, filledWith: .white)))
    #expect(a != (try Bitmap(width: 1, height: 2, filledWith: .white)))
    #expect(a != (try Bitmap(width: 2, height: 1, filledWith: .black)))
  }

  @Test func undecodablePlaceholderNeverEqualsARealImage() throws {
    let placeholder = Bitmap.undecodable(.emptyPNGData)
    #expect(placeholder != (try Bitmap(width: 1, height: 1, filledWith: .clear)))
    #expect(placeholder.decodingFailure == .emptyPNGData)
  }

  @Test func descriptions() throws {
    #expect(try Bitmap(width: 4, height: 3).description == "Bitmap(4×3)")
    #expect(RGBA(red: 1, green: 2, blue: 3, alpha: 4).description == "RGBA(1, 2, 3, 4)")
  }
}
