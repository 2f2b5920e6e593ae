import Testing

@testable import ImageSnapshotTesting

@Suite struct DeltaEKernelTests {
  /// A reproducible generator, so a failure can be replayed.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Random RGBA pixel pairs: one in four opaque, the rest with random alpha, some nearly equal.
  static func randomPixels(count: Int, seed: UInt64) -> (reference: [UInt8], new: [UInt8]) {
    var generator = SplitMix(state: seed)
    var reference: [UInt8] = []
    var new: [UInt8] = []
    for pair in 0..<count {
      var first = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if pair % 4 == 0 { first[3] = 255 }
      var second = first
      if pair % 2 == 0 {
        second = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if pair % 4 == 0 { second[3] = 255 }
      } else {
        second[pair % 3] = first[pair % 3] &+ UInt8.random(in: 1...6, using: &generator)
      }
      reference += first
      new += second
    }
    return (reference, new)
  }

  /// ΔE*94 over black and over white, the larger, without tables, in Double.
  static func exactDeltaE(_ reference: ArraySlice<UInt8>, _ new: ArraySlice<UInt8>) -> Double {
    let first = RGBA(
      red: reference[reference.startIndex],
      green: reference[reference.startIndex + 1],
      blue: reference[reference.startIndex + 2],
      alpha: reference[reference.startIndex + 3]
    )
    let second = RGBA(
      red: new[new.startIndex],
      green: new[new.startIndex + 1],
      blue: new[new.startIndex + 2],
      alpha: new[new.startIndex + 3]
    )
    return max(
      cie94Difference(
        reference: LabConversion.exactLab(first, overWhite: false),
        sample: LabConversion.exactLab(second, overWhite: false)
      ),
      cie94Difference(
        reference: LabConversion.exactLab(first, overWhite: true),
        sample: LabConversion.exactLab(second, overWhite: true)
      )
    )
  }

  /// The tally of a pass over two RGBA8 buffers, and the ΔE it stored for each pixel.
  static func compare(
    _ reference: [UInt8],
    _ new: [UInt8],
    tolerance: Double?
  ) -> (PixelComparisonTally, [Float]) {
    let map = PixelDifferenceMap(pixelCount: reference.count / 4)
    let tally = PixelComparison.compare(
      reference: reference,
      new: new,
      tolerance: tolerance,
      recordingInto: map
    )
    return (tally, map.deltaEs)
  }

  @Test func estimatesStayWithinTheirErrorBound() {
    let count = 4000
    let (reference, new) = Self.randomPixels(count: count, seed: 1)
    // Every pixel's ΔE through the loop (the estimate where it decides alone), and the exact one.
    // A tolerance that no ΔE is near, and a maximum reached early, leave most estimates as they are.
    let (_, stored) = Self.compare(reference, new, tolerance: 1000)
    var worst = 0.0
    for pixel in 0..<count {
      let range = pixel * 4..<pixel * 4 + 4
      let exact = Self.exactDeltaE(reference[range], new[range])
      worst = max(worst, abs(Double(stored[pixel]) - exact))
    }
    #expect(worst < 1e-3, "largest error of an estimated ΔE*94: \(worst)")
    #expect(worst * 10 < DeltaEKernel.errorBound)
  }

  @Test func kernelAgreesWithTheExactConversionOnGreysAndPrimaries() {
    // Every grey against black and white, and the primaries, opaque: where the cube root's
    // first guess is worst (powers of two) and where the straight segment begins.
    var reference: [UInt8] = []
    var new: [UInt8] = []
    for code in 0...255 {
      let grey = UInt8(code)
      for other: [UInt8] in [
        [0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255],
      ] {
        reference += [grey, grey, grey, 255]
        new += other + [255]
      }
    }
    let count = reference.count / 4
    let (_, stored) = Self.compare(reference, new, tolerance: 1000)
    var worst = 0.0
    for pixel in 0..<count
    where reference[pixel * 4..<pixel * 4 + 4] != new[pixel * 4..<pixel * 4 + 4] {
      let range = pixel * 4..<pixel * 4 + 4
      worst = max(
        worst,
        abs(Double(stored[pixel]) - Self.exactDeltaE(reference[range], new[range]))
      )
    }
    #expect(worst < 1e-3, "largest error of an estimated ΔE*94: \(worst)")
  }

  @Test(arguments: [nil, 0.5, 2.0, 10.0, 30.0] as [Double?])
  func countsAndMaximumAreThoseOfTheTableConversion(tolerance: Double?) {
    // The loop's estimates only filter: its results must equal converting every pixel with
    // `LabLookup`, to the last bit.
    let (reference, new) = Self.randomPixels(count: 5000, seed: 7)
    let tally = PixelComparison.compare(reference: reference, new: new, tolerance: tolerance)
    var failing = 0
    var differing = 0
    var maximum = 0.0
    let lookup = LabLookup.shared
    reference.withUnsafeBufferPointer { first in
      new.withUnsafeBufferPointer { second in
        for pixel in 0..<5000 {
          let offset = pixel * 4
          if first[offset..<offset + 4].elementsEqual(second[offset..<offset + 4]) { continue }
          differing += 1
          let deltaE = lookup.largestDeltaE(
            reference: first.baseAddress! + offset,
            new: second.baseAddress! + offset
          )
          if tolerance.map({ deltaE > $0 }) ?? true { failing += 1 }
          maximum = max(maximum, deltaE)
        }
      }
    }
    #expect(tally.differingPixelCount == differing)
    #expect(tally.failingPixelCount == failing)
    #expect(tally.maximumDeltaE == maximum)
  }

  @Test func matchDecisionsAgreeWithTheExactConversionAwayFromTheTolerance() {
    let (reference, new) = Self.randomPixels(count: 4000, seed: 3)
    for tolerance in [1.0, 2.0, 5.0, 20.0] {
      let (tally, stored) = Self.compare(reference, new, tolerance: tolerance)
      var failing = 0
      for pixel in 0..<4000 {
        let range = pixel * 4..<pixel * 4 + 4
        if reference[range] == new[range] { continue }
        let exact = Self.exactDeltaE(reference[range], new[range])
        #expect(
          abs(exact - tolerance) < 1e-3
            || (exact > tolerance) == (Double(stored[pixel]) > tolerance)
        )
        if exact > tolerance { failing += 1 }
      }
      #expect(tally.failingPixelCount == failing)
    }
  }
}
