import Testing

@testable import ImageSnapshotTesting

@Suite struct DifferenceImageTests {
  @Test func failingPixelsAreRedAndBrighterForLargerDifferences() throws {
    var new = try Bitmap(width: 3, height: 1, filledWith: .white)
    new[x: 1, y: 0] = RGBA(red: 250, green: 250, blue: 250)  // small ΔE
    new[x: 2, y: 0] = .black  // ΔE 100
    let reference = try Bitmap(width: 3, height: 1, filledWith: .white)
    let difference = Bitmap.differenceImage(reference: reference, new: new, perceptualPrecision: 1)
    let unchanged = difference[x: 0, y: 0]
    let small = difference[x: 1, y: 0]
    let large = difference[x: 2, y: 0]
    #expect(unchanged == .white, "white faded towards white stays white")
    #expect(small.green == 0 && small.blue == 0 && small.red >= 110)
    #expect(large == RGBA(red: 255, green: 0, blue: 0))
    #expect(small.red < large.red)
  }

  @Test func referenceIsFadedToLightGrey() throws {
    let reference = try Bitmap(width: 1, height: 1, filledWith: .black)
    let difference = Bitmap.differenceImage(
      reference: reference,
      new: reference,
      perceptualPrecision: 1
    )
    // Black over white, three-quarters of the way to white: 255 × 3 / 4.
    #expect(difference[x: 0, y: 0] == RGBA(red: 191, green: 191, blue: 191))
  }

  @Test func differencesWithinTheToleranceAreNotMarked() throws {
    let gray = RGBA(red: 128, green: 128, blue: 128)
    let reference = try Bitmap(width: 2, height: 1, filledWith: gray)
    var new = reference
    new[x: 0, y: 0] = RGBA(red: 129, green: 128, blue: 128)
    new[x: 1, y: 0] = .black
    let difference = Bitmap.differenceImage(
      reference: reference,
      new: new,
      perceptualPrecision: 0.99
    )
    #expect(difference[x: 0, y: 0].green != 0, "within tolerance: grey")
    #expect(difference[x: 1, y: 0].green == 0, "beyond tolerance: red")
  }

  @Test func differentSizesAreShownSideBySide() throws {
    let reference = try Bitmap(width: 2, height: 1, filledWith: .white)
    let new = try Bitmap(width: 1, height: 3, filledWith: .black)
    let difference = Bitmap.differenceImage(reference: reference, new: new, perceptualPrecision: 1)
    #expect(difference.width == 3)
    #expect(difference.height == 3)
    #expect(difference[x: 1, y: 0] == .white)
    #expect(difference[x: 2, y: 2] == .black)
    #expect(difference[x: 0, y: 2] == .clear, "outside the shorter image: transparent")
  }

  /// FNV-1a over the image's bytes: a short fingerprint to pin whole difference images with.
  static func fingerprint(_ bitmap: Bitmap) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bitmap.rgbaBytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// Random pairs (opaque and translucent, equal, nearly equal and far apart) and a grey ramp
  /// changed by one to three codes, so that many pixels sit near the tolerances below.
  static func pinnedInputs() throws -> [(name: String, reference: Bitmap, new: Bitmap)] {
    let (randomReference, randomNew) = try PixelComparisonThreadingTests.randomImages(
      width: 131,
      height: 97,
      seed: 11
    )
    let pairs = DeltaEKernelTests.randomPixels(count: 4000, seed: 3)
    let ramp = try Bitmap(width: 256, height: 4) { x, y in
      RGBA(red: UInt8(x), green: UInt8(x), blue: UInt8(255 - x), alpha: y == 3 ? 128 : 255)
    }
    let rampChanged = try Bitmap(width: 256, height: 4) { x, y in
      let step = UInt8(1 + (x + y) % 3)
      return RGBA(
        red: UInt8(x) &+ step,
        green: UInt8(x),
        blue: UInt8(255 - x),
        alpha: y == 3 ? 128 : 255
      )
    }
    return [
      ("random", randomReference, randomNew),
      (
        "pairs",
        try Bitmap(width: 80, height: 50, rgbaBytes: pairs.reference),
        try Bitmap(width: 80, height: 50, rgbaBytes: pairs.new)
      ),
      ("ramp", ramp, rampChanged),
    ]
  }

  /// Fingerprints of the difference images as drawn before the comparison pass could return its
  /// failing-pixel mask (when a second pass stored every ΔE and the red rule was applied again):
  /// drawing from the mask must give the same pixels.
  @Test func imagesAreThoseRecordedBeforeTheMask() throws {
    let expected: [String: UInt64] = [
      "random 1.0": 0x237edcfc0da5a4d3,
      "random 0.995": 0xc29a109d870d031e,
      "random 0.99": 0x32810fc97942545a,
      "random 0.98": 0xb8904ab8a78fc535,
      "random 0.9": 0x94516a91bcfeef88,
      "pairs 1.0": 0xacc55c3937a7d17b,
      "pairs 0.995": 0xf69d40aef20cca67,
      "pairs 0.99": 0xd962b1c811c848dd,
      "pairs 0.98": 0x2bd31ce75755d2ab,
      "pairs 0.9": 0x4cc6f60a772d5d93,
      "ramp 1.0": 0x36f0fed1f48d5195,
      "ramp 0.995": 0x9fc0fd247c1a4c39,
      "ramp 0.99": 0x9e9d20bbfeeb24ef,
      "ramp 0.98": 0x356a9af8c9e6ad7,
      "ramp 0.9": 0x356a9af8c9e6ad7,
    ]
    for (name, reference, new) in try Self.pinnedInputs() {
      for precision: Float in [1, 0.995, 0.99, 0.98, 0.9] {
        let difference = Bitmap.differenceImage(
          reference: reference,
          new: new,
          perceptualPrecision: precision
        )
        let key = "\(name) \(precision)"
        let fingerprint = Self.fingerprint(difference)
        #expect(fingerprint == expected[key], "\(key): 0x\(String(fingerprint, radix: 16))")
      }
    }
  }

  @Test func failingPixelsAreRedAndTheRestTheFadedReference() throws {
    for (name, reference, new) in try Self.pinnedInputs() {
      for precision: Float in [1, 0.99, 0.9] {
        let difference = Bitmap.differenceImage(
          reference: reference,
          new: new,
          perceptualPrecision: precision
        )
        let comparison = try #require(
          Bitmap.compare(reference, new, perceptualPrecision: precision)
        )
        var red = 0
        for pixel in 0..<reference.pixelCount {
          let bytes = difference.rgbaBytes[pixel * 4..<pixel * 4 + 4]
          let marked = bytes[bytes.startIndex + 1] == 0 && bytes[bytes.startIndex + 2] == 0
          if marked {
            red += 1
            #expect(bytes[bytes.startIndex] >= 110, "\(name) \(precision): pixel \(pixel)")
          } else {
            let offset = pixel * 4
            let alpha = Double(reference.rgbaBytes[offset + 3]) / 255
            let luma =
              0.2126 * Double(reference.rgbaBytes[offset])
              + 0.7152 * Double(reference.rgbaBytes[offset + 1])
              + 0.0722 * Double(reference.rgbaBytes[offset + 2])
            let faded = UInt8(min(255, (255 * 3 + luma * alpha + 255 * (1 - alpha)) / 4))
            #expect(Array(bytes) == [faded, faded, faded, 255], "\(name) \(precision): \(pixel)")
          }
        }
        #expect(red == comparison.failingPixelCount, "\(name) at precision \(precision)")
      }
    }
  }

  @Test func theDiffingDrawsTheImageFromTheOnePassItComparedWith() throws {
    for (name, reference, new) in try Self.pinnedInputs() {
      for precision: Float in [1, 0.99, 0.9] {
        let result = try #require(
          Bitmap.compare(
            reference,
            new,
            perceptualPrecision: precision,
            differenceImageUnlessMatching: 1
          )
        )
        #expect(result.comparison == Bitmap.compare(reference, new, perceptualPrecision: precision))
        let drawn = Bitmap.differenceImage(
          reference: reference,
          new: new,
          perceptualPrecision: precision
        )
        #expect(result.differenceImage == drawn, "\(name) at precision \(precision)")
      }
    }
  }

  @Test func matchingImagesGetNoDifferenceImage() throws {
    let (reference, new) = try PixelComparisonThreadingTests.randomImages(
      width: 40,
      height: 30,
      seed: 3
    )
    let identical = try #require(
      Bitmap.compare(reference, reference, perceptualPrecision: 1, differenceImageUnlessMatching: 1)
    )
    #expect(identical.differenceImage == nil)
    #expect(identical.comparison.differingPixelCount == 0)
    let lenient = try #require(
      Bitmap.compare(reference, new, perceptualPrecision: 0.9, differenceImageUnlessMatching: 0)
    )
    #expect(lenient.comparison.failingPixelCount > 0, "fails some pixels, yet matches")
    #expect(lenient.differenceImage == nil)
    let unasked = try #require(
      Bitmap.compare(reference, new, perceptualPrecision: 1, differenceImageUnlessMatching: nil)
    )
    #expect(unasked.differenceImage == nil)
  }
}

extension Bitmap {
  /// The diffing's comparison with only a perceptual precision, drawing the difference image
  /// unless the images match at `precision` (never when it is `nil`).
  static func compare(
    _ reference: Bitmap,
    _ new: Bitmap,
    perceptualPrecision: Float,
    differenceImageUnlessMatching precision: Float?
  ) -> (comparison: BitmapComparison, differenceImage: Bitmap?)? {
    compare(
      reference,
      new,
      options: BitmapComparison.Options(perceptualPrecision: perceptualPrecision),
      differenceImageUnless: precision.map { precision in { $0.matches(precision: precision) } }
    )
  }
}
