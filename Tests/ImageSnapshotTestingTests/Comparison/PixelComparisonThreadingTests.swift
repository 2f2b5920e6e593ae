import Testing

@testable import ImageSnapshotTesting

@Suite struct PixelComparisonThreadingTests {
  /// Two random images of `width` × `height`: a third of the pixels equal, runs of repeated
  /// pairs, opaque and translucent pixels, small and large changes.
  static func randomImages(width: Int, height: Int, seed: UInt64) throws -> (Bitmap, Bitmap) {
    var generator = DeltaEKernelTests.SplitMix(state: seed)
    let count = width * height * 4
    var reference = [UInt8](repeating: 0, count: count)
    var new = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
      let random = generator.next()
      let kind = random % 8
      if kind == 0 && offset >= 4 {
        // The previous pair again: a run that shares one slot, also across range boundaries.
        for channel in 0..<4 {
          reference[offset + channel] = reference[offset - 4 + channel]
          new[offset + channel] = new[offset - 4 + channel]
        }
      } else {
        let colour = generator.next()
        let opaque = kind % 2 == 1
        for channel in 0..<4 {
          let byte = UInt8(truncatingIfNeeded: colour >> (channel * 8))
          reference[offset + channel] = channel == 3 && opaque ? 255 : byte
          new[offset + channel] = reference[offset + channel]
        }
        if kind >= 6 {
          // A different colour altogether.
          for channel in 0..<4 {
            let byte = UInt8(truncatingIfNeeded: colour >> (32 + channel * 8))
            new[offset + channel] = channel == 3 && opaque ? 255 : byte
          }
        } else if kind >= 3 {
          // A small change in one channel.
          let channel = Int(random >> 8) % 3
          new[offset + channel] = reference[offset + channel] &+ UInt8(1 + (random >> 16) % 6)
        }
      }
      offset += 4
    }
    return (
      try Bitmap(width: width, height: height, rgbaBytes: reference),
      try Bitmap(width: width, height: height, rgbaBytes: new)
    )
  }

  /// The tally, every stored ΔE and the failing-pixel mask, compared with `threading`.
  static func compare(
    _ reference: Bitmap,
    _ new: Bitmap,
    tolerance: Double?,
    threading: PixelComparisonThreading
  ) -> (PixelComparisonTally, [UInt32], [Bool]) {
    let map = PixelDifferenceMap(pixelCount: reference.pixelCount)
    let tally = PixelComparison.compare(
      reference: reference.rgbaBytes,
      new: new.rgbaBytes,
      tolerance: tolerance,
      threading: threading,
      recordingInto: map
    )
    let failing = (0..<reference.pixelCount).map { map.isFailing($0) }
    return (tally, map.deltaEs.map(\.bitPattern), failing)
  }

  static func expectSameResults(
    _ reference: Bitmap,
    _ new: Bitmap,
    threading: PixelComparisonThreading
  ) {
    for precision: Float in [1, 0.995, 0.98, 0.9] {
      let tolerance = Bitmap.deltaETolerance(perceptualPrecision: precision)
      let (single, singleDeltaEs, singleFailing) = compare(
        reference,
        new,
        tolerance: tolerance,
        threading: .singleThreaded
      )
      let (parallel, parallelDeltaEs, parallelFailing) = compare(
        reference,
        new,
        tolerance: tolerance,
        threading: threading
      )
      #expect(single.differingPixelCount > 0)
      #expect(parallel.differingPixelCount == single.differingPixelCount)
      #expect(parallel.failingPixelCount == single.failingPixelCount)
      #expect(parallel.maximumDeltaE.bitPattern == single.maximumDeltaE.bitPattern)
      // Counted rather than compared whole, so that a failure does not print a million values.
      let differentDeltaEs = zip(parallelDeltaEs, singleDeltaEs).filter { $0 != $1 }.count
      #expect(differentDeltaEs == 0, "stored ΔE at precision \(precision)")
      let differentVerdicts = zip(parallelFailing, singleFailing).filter { $0 != $1 }.count
      #expect(differentVerdicts == 0, "failing-pixel mask at precision \(precision)")
      #expect(singleFailing.filter { $0 }.count == single.failingPixelCount)
      let singleImage = Bitmap.differenceImage(
        reference: reference,
        new: new,
        perceptualPrecision: precision,
        threading: .singleThreaded
      )
      let parallelImage = Bitmap.differenceImage(
        reference: reference,
        new: new,
        perceptualPrecision: precision,
        threading: threading
      )
      let differentBytes = zip(parallelImage.rgbaBytes, singleImage.rgbaBytes).filter { $0 != $1 }
      #expect(differentBytes.isEmpty, "difference image at precision \(precision)")
    }
  }

  @Test(arguments: [
    (7, 1, 3), (131, 97, 2), (131, 97, 3), (131, 97, 5), (131, 97, 13), (64, 64, 4),
  ])
  func rangesGiveTheSameResultsAsOneThread(width: Int, height: Int, ranges: Int) throws {
    // 131 × 97 is 12 blocks and a part: ranges of unequal length, the last one short.
    let (reference, new) = try Self.randomImages(width: width, height: height, seed: 11)
    Self.expectSameResults(reference, new, threading: .ranges(ranges))
  }

  @Test func largeImagesUseEveryCoreWithTheSameResults() throws {
    // Above the threshold and not a whole number of blocks.
    let (reference, new) = try Self.randomImages(width: 1031, height: 1021, seed: 5)
    if PixelComparisonThreading.activeProcessorCount > 1 {
      #expect(
        PixelComparisonThreading.automatic.rangeCount(pixelCount: reference.pixelCount) > 1
      )
    }
    Self.expectSameResults(reference, new, threading: .automatic)
    let single = Bitmap.compare(
      reference,
      new,
      perceptualPrecision: 0.98,
      threading: .singleThreaded
    )
    #expect(Bitmap.compare(reference, new, perceptualPrecision: 0.98) == single)
  }

  /// Anti-aliasing is tested as the pass finds failing pixels: every split into ranges forgives
  /// the same pixels, stores the same map and leaves the same largest ΔE.
  @Test(arguments: [2, 3, 5, 13])
  func forgivingAntialiasingGivesTheSameResultsOnEveryRange(ranges: Int) throws {
    let (reference, new) = try AntialiasingTests.fewColourPair(width: 131, height: 97, seed: 7)
    func compare(
      tolerance: Double?,
      _ threading: PixelComparisonThreading
    ) -> (PixelComparisonTally, [UInt32], [Int]) {
      let map = PixelDifferenceMap(pixelCount: reference.pixelCount)
      let tally = AntialiasingTests.detector(reference, new) { detector in
        PixelComparison.compare(
          reference: reference.rgbaBytes,
          new: new.rgbaBytes,
          tolerance: tolerance,
          threading: threading,
          antialiasing: detector,
          recordingInto: map
        )
      }
      let verdicts = (0..<reference.pixelCount).map {
        map.isFailing($0) ? 1 : map.isAntialiased($0) ? 2 : 0
      }
      return (tally, map.deltaEs.map(\.bitPattern), verdicts)
    }
    for precision: Float in [1, 0.98, 0.9] {
      let tolerance = Bitmap.deltaETolerance(perceptualPrecision: precision)
      let single = compare(tolerance: tolerance, .singleThreaded)
      let split = compare(tolerance: tolerance, .ranges(ranges))
      #expect(single.0.antialiasedPixelCount > 0 && single.0.failingPixelCount > 0)
      #expect(split.0 == single.0, "precision \(precision)")
      #expect(zip(split.1, single.1).filter { $0 != $1 }.isEmpty, "stored ΔE at \(precision)")
      #expect(zip(split.2, single.2).filter { $0 != $1 }.isEmpty, "verdicts at \(precision)")
      #expect(single.2.filter { $0 == 2 }.count == single.0.antialiasedPixelCount)
      #expect(single.2.filter { $0 == 1 }.count == single.0.failingPixelCount)
    }
  }

  @Test func smallImagesStayOnTheCallingThread() {
    #expect(PixelComparisonThreading.automatic.rangeCount(pixelCount: 1000 * 1000) == 1)
    #expect(PixelComparisonThreading.singleThreaded.rangeCount(pixelCount: 1 << 22) == 1)
    #expect(PixelComparisonThreading.ranges(4).rangeCount(pixelCount: 10) == 1)
  }
}
