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
}
