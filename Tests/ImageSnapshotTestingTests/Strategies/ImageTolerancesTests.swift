import Foundation
import RunRecord
import Testing

@testable import ImageSnapshotTesting
@testable import SnapshotTesting

/// `.image(…, ignoringAntialiasing:, maxDifferentPixels:, masks:)` through `verifySnapshot`: what
/// passes, what fails and with which message, what the difference image shows, and bad input.
@Suite struct ImageTolerancesTests {
  /// A 10×10 white reference, recorded, and the verdict on `new` with `strategy`.
  struct Harness {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let reference: Bitmap

    init(_ reference: Bitmap? = nil) throws {
      self.reference = try reference ?? Bitmap(width: 10, height: 10, filledWith: .white)
      #expect(verify(self.reference, as: .image, record: .all) != nil, "records the reference")
    }

    func verify(
      _ bitmap: Bitmap,
      as strategy: Snapshotting<Bitmap, Bitmap>,
      record: SnapshotTestingConfiguration.Record = .never
    ) -> String? {
      ImagePrecisionTests.verify(bitmap, as: strategy, in: root, record: record)
    }

    var referenceFile: URL { root.appendingPathComponent("references/precision.image.png") }

    /// The difference image the last failure attached.
    func differenceImage() throws -> Bitmap {
      let folder = root.appendingPathComponent("artifacts")
      let names = FileManager.default.subpaths(atPath: folder.path) ?? []
      let name = try #require(names.first { $0.hasSuffix("difference.png") }, "\(names)")
      return try Bitmap(pngData: Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  /// The 10×10 white image with `count` black pixels, row by row from the top-left corner.
  static func white(withBlackPixels count: Int) throws -> Bitmap {
    var bitmap = try Bitmap(width: 10, height: 10, filledWith: .white)
    for index in 0..<count { bitmap[x: index % 10, y: index / 10] = .black }
    return bitmap
  }

  // MARK: maxDifferentPixels

  @Test func aPixelBudgetAllowsThatManyFailingPixelsAndNoMore() throws {
    let harness = try Harness()
    defer { harness.remove() }
    #expect(harness.verify(try Self.white(withBlackPixels: 3), as: .image(maxDifferentPixels: 3)) == nil)
    let message = try #require(
      harness.verify(try Self.white(withBlackPixels: 4), as: .image(maxDifferentPixels: 3))
    )
    #expect(message.contains("4 pixels differ, more than the allowed 3."), "\(message)")
    #expect(message.contains("4 of 100 pixels differ; the largest difference is ΔE*94 100.00."))
  }

  @Test func aBudgetOfZeroAllowsNoFailingPixel() throws {
    let harness = try Harness()
    defer { harness.remove() }
    #expect(harness.verify(harness.reference, as: .image(maxDifferentPixels: 0)) == nil)
    let message = harness.verify(try Self.white(withBlackPixels: 1), as: .image(maxDifferentPixels: 0))
    #expect(message?.contains("1 pixels differ, more than the allowed 0.") == true)
  }

  @Test func withAPrecisionBelowOneBothLimitsMustHold() throws {
    let harness = try Harness()
    defer { harness.remove() }
    let five = try Self.white(withBlackPixels: 5)
    // 95% match: within a 0.95 precision, beyond a budget of 4.
    let overBudget = harness.verify(five, as: .image(precision: 0.95, maxDifferentPixels: 4))
    #expect(overBudget?.contains("5 pixels differ, more than the allowed 4.") == true)
    // Within a budget of 10, beyond a precision of 0.99.
    let belowPrecision = try #require(
      harness.verify(five, as: .image(precision: 0.99, maxDifferentPixels: 10))
    )
    #expect(
      belowPrecision.contains("The percentage of pixels that match 0.95 is less than required 0.99")
    )
    #expect(!belowPrecision.contains("more than the allowed"))
    #expect(harness.verify(five, as: .image(precision: 0.95, maxDifferentPixels: 5)) == nil)
  }

  @Test func aNegativeBudgetFailsNamingItAndRecordsNothing() throws {
    let harness = try Harness()
    defer { harness.remove() }
    let recorded = try Data(contentsOf: harness.referenceFile)
    for record in [SnapshotTestingConfiguration.Record.all, .failed, .never] {
      let message = harness.verify(
        try Self.white(withBlackPixels: 2),
        as: .image(maxDifferentPixels: -1),
        record: record
      )
      #expect(
        message?.hasPrefix("The image strategy's maxDifferentPixels is -1, but it must be 0 or more")
          == true,
        "\(String(describing: message))"
      )
    }
    #expect(try Data(contentsOf: harness.referenceFile) == recorded)
  }

  // MARK: Masks

  @Test func maskedPixelsAreLeftOutOfTheComparisonAndTheTotal() throws {
    let harness = try Harness()
    defer { harness.remove() }
    // Five black pixels in the top row, under a mask of the top half; five more below it.
    var new = try Self.white(withBlackPixels: 5)
    for x in 0..<5 { new[x: x, y: 9] = .black }
    let topHalf = Bitmap.Region(x: 0, y: 0, width: 10, height: 5)
    // 45 of the 50 compared pixels match: 0.9, not 0.95 (without the mask, 0.9 of 100).
    #expect(harness.verify(new, as: .image(precision: 0.9, masks: [topHalf])) == nil)
    let message = try #require(harness.verify(new, as: .image(precision: 0.95, masks: [topHalf])))
    #expect(message.contains("The percentage of pixels that match 0.9 is less than required 0.95"))
    #expect(message.contains("5 of 50 pixels differ"), "\(message)")
    #expect(message.contains("50 pixels are masked (magenta in the difference image)."))
    #expect(harness.verify(new, as: .image(masks: [topHalf, .init(x: 0, y: 9, width: 5, height: 1)])) == nil)
  }

  @Test func aMaskPartlyOutsideTheImageIsClipped() throws {
    let harness = try Harness()
    defer { harness.remove() }
    let new = try Self.white(withBlackPixels: 3)
    let corner = Bitmap.Region(x: -5, y: -5, width: 8, height: 6)  // covers columns 0–2, row 0
    #expect(harness.verify(new, as: .image(masks: [corner])) == nil)
    let comparison = try #require(Bitmap.compare(harness.reference, new, masks: [corner]))
    #expect(comparison.maskedPixelCount == 3)
    #expect(comparison.comparedPixelCount == 97)
    let huge = Bitmap.Region(x: 9, y: 9, width: .max, height: .max)  // no overflow
    #expect(Bitmap.compare(harness.reference, new, masks: [huge])?.maskedPixelCount == 1)
  }

  @Test(arguments: [
    (Bitmap.Region(x: 10, y: 0, width: 5, height: 5), "lies outside the 10×10 image"),
    (Bitmap.Region(x: -6, y: 2, width: 6, height: 1), "lies outside the 10×10 image"),
    (Bitmap.Region(x: 0, y: 0, width: -3, height: 4), "covers no pixel"),
    (Bitmap.Region(x: 1, y: 1, width: 4, height: 0), "covers no pixel"),
  ])
  func aMaskThatMasksNothingFailsNamingIt(_ mask: Bitmap.Region, _ problem: String) throws {
    let harness = try Harness()
    defer { harness.remove() }
    let recorded = try Data(contentsOf: harness.referenceFile)
    for record in [SnapshotTestingConfiguration.Record.all, .never] {
      let message = try #require(
        harness.verify(harness.reference, as: .image(masks: [mask]), record: record)
      )
      #expect(message.hasPrefix("The image strategy's mask \(mask) \(problem)"), "\(message)")
      #expect(message.contains("nothing was recorded"))
    }
    #expect(try Data(contentsOf: harness.referenceFile) == recorded)
  }

  @Test func masksCoveringTheWholeImagePassWithAWarning() throws {
    let harness = try Harness()
    defer { harness.remove() }
    let everything = Bitmap.Region(x: 0, y: 0, width: 10, height: 10)
    let new = try Self.white(withBlackPixels: 100)
    let strategy = Snapshotting<Bitmap, Bitmap>.image(masks: [everything])
    let (data, warnings) = SnapshotWarning.collecting { strategy.diffing.toData(new) }
    #expect(!data.isEmpty)
    #expect(
      warnings == [
        """
        The image strategy's masks cover all 10×10 pixels, so the comparison checks only the \
        image's size.
        """
      ]
    )
    #expect(harness.verify(new, as: strategy) == nil)
    let comparison = try #require(Bitmap.compare(harness.reference, new, masks: [everything]))
    #expect(comparison.comparedPixelCount == 0)
    #expect(comparison.matchingPixelFraction == 1)
    #expect(SnapshotWarning.collecting { Snapshotting<Bitmap, Bitmap>.image.diffing.toData(new) }.warnings.isEmpty)
  }

  @Test func imagesOfDifferentSizesStillFailWithMasks() throws {
    let harness = try Harness()
    defer { harness.remove() }
    let wide = try Bitmap(width: 12, height: 10, filledWith: .white)
    let message = harness.verify(
      wide,
      as: .image(masks: [Bitmap.Region(x: 0, y: 0, width: 12, height: 2)])
    )
    #expect(
      message?.contains("Newly-taken snapshot@(12, 10) does not match reference@(10, 10).") == true
    )
  }

  // MARK: Anti-aliasing

  @Test func antialiasedEdgesPassOnlyWhenIgnored() throws {
    let (_, reference, new) = try AntialiasingTests.renderedPairs()[0]
    let harness = try Harness(reference)
    defer { harness.remove() }
    let strict = try #require(harness.verify(new, as: .image(perceptualPrecision: 0.98)))
    #expect(!strict.contains("anti-aliasing"))
    let comparison = try #require(
      Bitmap.compare(reference, new, perceptualPrecision: 0.98, ignoringAntialiasing: true)
    )
    #expect(comparison.antialiasedPixelCount > 0)
    let budget = comparison.failingPixelCount
    let strategy = Snapshotting<Bitmap, Bitmap>.image(
      perceptualPrecision: 0.98,
      ignoringAntialiasing: true,
      maxDifferentPixels: budget
    )
    #expect(harness.verify(new, as: strategy) == nil)
    let tighter = Snapshotting<Bitmap, Bitmap>.image(
      perceptualPrecision: 0.98,
      ignoringAntialiasing: true,
      maxDifferentPixels: budget - 1
    )
    let message = try #require(harness.verify(new, as: tighter))
    #expect(
      message.contains(
        "\(comparison.antialiasedPixelCount) more pixels differ but are anti-aliasing, and are "
          + "ignored (yellow in the difference image)."
      ),
      "\(message)"
    )
  }

  @Test func theDifferenceImagePaintsFailingRedForgivenYellowAndMasksMagenta() throws {
    let (_, reference, new) = try AntialiasingTests.renderedPairs()[0]
    let harness = try Harness(reference)
    defer { harness.remove() }
    let mask = Bitmap.Region(x: 0, y: 0, width: 6, height: 4)
    let strategy = Snapshotting<Bitmap, Bitmap>.image(ignoringAntialiasing: true, masks: [mask])
    #expect(harness.verify(new, as: strategy) != nil)
    let comparison = try #require(
      Bitmap.compare(reference, new, ignoringAntialiasing: true, masks: [mask])
    )
    let difference = try harness.differenceImage()
    var counts: [String: Int] = [:]
    for y in 0..<difference.height {
      for x in 0..<difference.width {
        let pixel = difference[x: x, y: y]
        let kind =
          pixel == Bitmap.maskColor
          ? "magenta"
          : pixel == Bitmap.antialiasedColor
            ? "yellow" : pixel.green == 0 && pixel.blue == 0 && pixel.red >= 110 ? "red" : "grey"
        counts[kind, default: 0] += 1
      }
    }
    #expect(counts["magenta"] == 24)
    #expect(counts["magenta"] == comparison.maskedPixelCount)
    #expect(counts["yellow"] == comparison.antialiasedPixelCount)
    #expect(counts["red"] == comparison.failingPixelCount)
    #expect((counts["red"] ?? 0) > 0 && (counts["yellow"] ?? 0) > 0)
  }

  @Test func upstreamsSpellingKeepsItsMessages() throws {
    let harness = try Harness()
    defer { harness.remove() }
    let message = try #require(
      harness.verify(try Self.white(withBlackPixels: 2), as: .image(precision: 0.99, perceptualPrecision: 0.98))
    )
    #expect(
      message.contains(
        """
        Newly-taken snapshot does not match reference.
        The percentage of pixels that match 0.98 is less than required 0.99
        The lowest perceptual color precision 0.0 is less than required 0.98
        2 of 100 pixels differ by more than ΔE*94 2.00; the largest difference is ΔE*94 100.00.
        """
      ),
      "\(message)"
    )
  }

  @Test func expectSnapshotTakesTheNewParameters() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: root) }
    let reference = try Self.white(withBlackPixels: 0)
    let new = try Self.white(withBlackPixels: 4)
    let environment: RunEnvironment = [
      .artifacts: root.path,
      .referenceDirectory: root.appendingPathComponent("references").path,
    ]
    RunEnvironment.withOverride(environment) {
      withKnownIssue {
        _ = expectSnapshot(of: reference, as: .image, named: "e", record: .all)
      }
      let passed = expectSnapshot(
        of: new,
        as: .image(maxDifferentPixels: 2, masks: [Bitmap.Region(x: 0, y: 0, width: 2, height: 1)]),
        named: "e",
        record: .never
      )
      #expect(passed)
      withKnownIssue {
        _ = expectSnapshot(of: new, as: .image(maxDifferentPixels: 3), named: "e", record: .never)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("4 pixels differ, more than the allowed 3.") }
      }
    }
  }
}
