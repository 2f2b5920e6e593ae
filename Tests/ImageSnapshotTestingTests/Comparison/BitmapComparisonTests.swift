import Testing

@testable import ImageSnapshotTesting

@Suite struct BitmapComparisonTests {
  static let gray = RGBA(red: 128, green: 128, blue: 128)

  /// A 10×10 image of `base` whose first `changed` pixels are `other`.
  static func image(_ base: RGBA, changed: Int = 0, to other: RGBA = .black) throws -> Bitmap {
    try Bitmap(width: 10, height: 10) { x, y in y * 10 + x < changed ? other : base }
  }

  @Test func identicalImagesHaveNoDifference() throws {
    let comparison = try #require(Bitmap.compare(Self.image(.white), Self.image(.white)))
    #expect(comparison.pixelCount == 100)
    #expect(comparison.differingPixelCount == 0)
    #expect(comparison.failingPixelCount == 0)
    #expect(comparison.maximumDeltaE == 0)
    #expect(comparison.matches(precision: 1))
  }

  @Test func differentSizesAreNotCompared() throws {
    let wide = try Bitmap(width: 2, height: 1, filledWith: .white)
    let tall = try Bitmap(width: 1, height: 2, filledWith: .white)
    #expect(Bitmap.compare(wide, tall) == nil)
  }

  @Test func exactComparisonCountsEveryDifferingByte() throws {
    let reference = try Self.image(.white)
    let new = try Self.image(.white, changed: 3, to: RGBA(red: 255, green: 255, blue: 254))
    let comparison = try #require(Bitmap.compare(reference, new))
    #expect(comparison.differingPixelCount == 3)
    #expect(comparison.failingPixelCount == 3)
    #expect(comparison.maximumDeltaE > 0 && comparison.maximumDeltaE < 1)
    #expect(!comparison.matches(precision: 1))
    #expect(comparison.matches(precision: 0.97))
    #expect(!comparison.matches(precision: 0.98))
  }

  @Test func invisibleDifferencesFailOnlyTheExactComparison() throws {
    // Fully transparent pixels look the same whatever their colour bytes: ΔE*94 0.
    let reference = try Self.image(.clear)
    let new = try Self.image(.clear, changed: 5, to: RGBA(red: 255, green: 0, blue: 0, alpha: 0))
    let exact = try #require(Bitmap.compare(reference, new))
    #expect(exact.failingPixelCount == 5)
    #expect(exact.maximumDeltaE == 0)
    let perceptual = try #require(Bitmap.compare(reference, new, perceptualPrecision: 0.999))
    #expect(perceptual.differingPixelCount == 5)
    #expect(perceptual.failingPixelCount == 0)
  }

  @Test func blackAgainstWhiteIsAtTheEdgeOfPerceptualPrecisionZero() throws {
    let reference = try Self.image(.white)
    let new = try Self.image(.white, changed: 1, to: .black)
    let lenient = try #require(Bitmap.compare(reference, new, perceptualPrecision: 0))
    #expect(abs(lenient.maximumDeltaE - 100) < 1e-6)
    #expect(lenient.failingPixelCount == 0, "ΔE 100 ≤ (1 − 0) × 100")
    let stricter = try #require(Bitmap.compare(reference, new, perceptualPrecision: 0.01))
    #expect(stricter.failingPixelCount == 1, "ΔE 100 > (1 − 0.01) × 100")
    #expect(lenient.lowestPerceptualPrecision < 1e-6)
  }

  @Test func aPixelAtExactlyTheToleranceMatches() throws {
    let reference = try Self.image(Self.gray)
    let new = try Self.image(Self.gray, changed: 1, to: RGBA(red: 128, green: 140, blue: 128))
    let measured = PixelComparison.compare(
      reference: reference.rgbaBytes,
      new: new.rgbaBytes,
      tolerance: 0
    )
    let deltaE = measured.maximumDeltaE
    let atTolerance = PixelComparison.compare(
      reference: reference.rgbaBytes,
      new: new.rgbaBytes,
      tolerance: deltaE
    )
    #expect(atTolerance.failingPixelCount == 0)
    let belowTolerance = PixelComparison.compare(
      reference: reference.rgbaBytes,
      new: new.rgbaBytes,
      tolerance: deltaE.nextDown
    )
    #expect(belowTolerance.failingPixelCount == 1)
  }

  @Test func toleranceFollowsPerceptualPrecision() {
    #expect(Bitmap.deltaETolerance(perceptualPrecision: 1) == nil)
    #expect(Bitmap.deltaETolerance(perceptualPrecision: 1.5) == nil)
    #expect(Bitmap.deltaETolerance(perceptualPrecision: 0.5) == 50)
    #expect(Bitmap.deltaETolerance(perceptualPrecision: 0) == 100)
    #expect(Bitmap.deltaETolerance(perceptualPrecision: -1) == 100)
    let nearTwo = Bitmap.deltaETolerance(perceptualPrecision: 0.98) ?? 0
    #expect(abs(nearTwo - 2) < 1e-5)
  }

  @Test func translucentPixelsAreJudgedOverBlackAndOverWhite() throws {
    // Half-transparent black against half-transparent white: over black they are
    // black vs mid-grey, over white mid-grey vs white. The larger difference counts.
    let reference = try Bitmap(
      width: 1,
      height: 1,
      filledWith: RGBA(red: 0, green: 0, blue: 0, alpha: 128)
    )
    let new = try Bitmap(
      width: 1,
      height: 1,
      filledWith: RGBA(red: 255, green: 255, blue: 255, alpha: 128)
    )
    let comparison = try #require(Bitmap.compare(reference, new, perceptualPrecision: 0.5))
    let overBlack = cie94Difference(
      reference: LabConversion.exactLab(
        RGBA(red: 0, green: 0, blue: 0, alpha: 128),
        overWhite: false
      ),
      sample: LabConversion.exactLab(
        RGBA(red: 255, green: 255, blue: 255, alpha: 128),
        overWhite: false
      )
    )
    let overWhite = cie94Difference(
      reference: LabConversion.exactLab(
        RGBA(red: 0, green: 0, blue: 0, alpha: 128),
        overWhite: true
      ),
      sample: LabConversion.exactLab(
        RGBA(red: 255, green: 255, blue: 255, alpha: 128),
        overWhite: true
      )
    )
    #expect(abs(comparison.maximumDeltaE - max(overBlack, overWhite)) < 1e-3)
    #expect(overBlack != overWhite)
  }

  @Test func precisionBoundaries() throws {
    let reference = try Self.image(.white)
    let twoOff = try #require(Bitmap.compare(reference, Self.image(.white, changed: 2)))
    #expect(twoOff.matchingPixelFraction == 0.98)
    #expect(twoOff.matches(precision: 0.98), "98 of 100 is exactly the Float 0.98")
    #expect(!twoOff.matches(precision: 0.99))
    let threeOff = try #require(Bitmap.compare(reference, Self.image(.white, changed: 3)))
    #expect(!threeOff.matches(precision: 0.98))
    #expect(threeOff.matches(precision: 0))
  }

  @Test func precisionOneRejectsASingleFailingPixelInAHugeImage() {
    // (2²⁵ − 1) / 2²⁵ rounds to the Float 1.0; precision 1 must still fail.
    let comparison = BitmapComparison(
      pixelCount: 1 << 25,
      differingPixelCount: 1,
      failingPixelCount: 1,
      maximumDeltaE: 3,
      perceptualPrecision: 1
    )
    #expect(comparison.matchingPixelFraction == 1)
    #expect(!comparison.matches(precision: 1))
  }

  /// The counts and the largest ΔE (its bits) of the difference images' pinned inputs, as the
  /// comparison gave them before it was split into files: a refactoring must not move them.
  @Test func talliesAreThoseRecordedBeforeTheSplit() throws {
    let expected: [String: (differing: Int, failing: Int, maximumDeltaE: UInt64)] = [
      "pairs 1.0": (4000, 4000, 0x405b074ae8d6082e),
      "pairs 0.995": (4000, 3074, 0x405b074ae8d6082e),
      "pairs 0.99": (4000, 2548, 0x405b074ae8d6082e),
      "pairs 0.98": (4000, 2105, 0x405b074ae8d6082e),
      "pairs 0.9": (4000, 1997, 0x405b074ae8d6082e),
      "ramp 1.0": (1024, 1024, 0x403b1b6e1cbe2a19),
      "ramp 0.995": (1024, 326, 0x403b1b6e1cbe2a19),
      "ramp 0.99": (1024, 37, 0x403b1b6e1cbe2a19),
      "ramp 0.98": (1024, 8, 0x403b1b6e1cbe2a19),
      "ramp 0.9": (1024, 8, 0x403b1b6e1cbe2a19),
      "random 1.0": (8975, 8975, 0x405e196a33fd3fbd),
      "random 0.995": (8975, 6844, 0x405e196a33fd3fbd),
      "random 0.99": (8975, 5332, 0x405e196a33fd3fbd),
      "random 0.98": (8975, 4002, 0x405e196a33fd3fbd),
      "random 0.9": (8975, 3603, 0x405e196a33fd3fbd),
    ]
    for (name, reference, new) in try DifferenceImageTests.pinnedInputs() {
      for precision: Float in [1, 0.995, 0.99, 0.98, 0.9] {
        let key = "\(name) \(precision)"
        for threading: PixelComparisonThreading in [.singleThreaded, .ranges(3)] {
          let comparison = try #require(
            Bitmap.compare(reference, new, perceptualPrecision: precision, threading: threading)
          )
          let tally = (
            comparison.differingPixelCount, comparison.failingPixelCount,
            comparison.maximumDeltaE.bitPattern
          )
          #expect(expected[key].map { $0 == tally } == true, "\(key): \(tally)")
        }
      }
    }
  }
}
