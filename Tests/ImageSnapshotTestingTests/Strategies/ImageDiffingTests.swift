import Foundation
import SnapshotTesting
import Testing

@testable import ImageSnapshotTesting

@Suite struct ImageDiffingTests {
  static func image(_ base: RGBA, changed: Int = 0, to other: RGBA = .black) throws -> Bitmap {
    try Bitmap(width: 10, height: 10) { x, y in y * 10 + x < changed ? other : base }
  }

  @Test func identicalImagesMatch() throws {
    #expect(Diffing<Bitmap>.image.diffV2(try Self.image(.white), try Self.image(.white)) == nil)
  }

  @Test func exactMismatchMessage() throws {
    let result = Diffing<Bitmap>.image.diffV2(
      try Self.image(.white),
      try Self.image(.white, changed: 3)
    )
    let (message, _) = try #require(result)
    #expect(
      message == """
        Newly-taken snapshot does not match reference.
        3 of 100 pixels differ; the largest difference is ΔE*94 100.00.
        """
    )
  }

  @Test func tolerantMismatchMessageUsesUpstreamsWording() throws {
    let gray = RGBA(red: 128, green: 128, blue: 128)
    let diffing = Diffing<Bitmap>.image(precision: 0.98, perceptualPrecision: 0.9)
    // 3 pixels at ΔE*94 ≈ 53.4 (gray to black), 97 identical.
    let (message, _) = try #require(
      diffing.diffV2(try Self.image(gray), try Self.image(gray, changed: 3))
    )
    #expect(
      message == """
        Newly-taken snapshot does not match reference.
        The percentage of pixels that match 0.97 is less than required 0.98
        The lowest perceptual color precision 0.46414986 is less than required 0.9
        3 of 100 pixels differ by more than ΔE*94 10.00; the largest difference is ΔE*94 53.59.
        """
    )
  }

  @Test func precisionAndPerceptualPrecisionBoundaries() throws {
    let gray = RGBA(red: 128, green: 128, blue: 128)
    let reference = try Self.image(gray)
    let twoBlack = try Self.image(gray, changed: 2)
    // Two failing pixels of 100 pass at precision 0.98, not at 0.99.
    #expect(Diffing<Bitmap>.image(precision: 0.98).diffV2(reference, twoBlack) == nil)
    #expect(Diffing<Bitmap>.image(precision: 0.99).diffV2(reference, twoBlack) != nil)
    // Gray to black is ΔE*94 ≈ 53.59: within a tolerance of 60 (precision 0.4), not of 50.
    #expect(Diffing<Bitmap>.image(perceptualPrecision: 0.4).diffV2(reference, twoBlack) == nil)
    #expect(Diffing<Bitmap>.image(perceptualPrecision: 0.5).diffV2(reference, twoBlack) != nil)
    // A one-step change is ΔE*94 below 1: invisible at 0.99, a mismatch by default.
    let nudged = try Self.image(gray, changed: 50, to: RGBA(red: 129, green: 128, blue: 128))
    #expect(Diffing<Bitmap>.image(perceptualPrecision: 0.99).diffV2(reference, nudged) == nil)
    #expect(Diffing<Bitmap>.image.diffV2(reference, nudged) != nil)
  }

  @Test func differentSizesNeverMatch() throws {
    let reference = try Bitmap(width: 4, height: 3, filledWith: .white)
    let new = try Bitmap(width: 5, height: 3, filledWith: .white)
    let diffing = Diffing<Bitmap>.image(precision: 0, perceptualPrecision: 0)
    let (message, attachments) = try #require(diffing.diffV2(reference, new))
    #expect(message == "Newly-taken snapshot@(5, 3) does not match reference@(4, 3).")
    #expect(names(attachments) == ["reference.png", "failure.png", "difference.png"])
    let difference = try #require(try attachment("difference.png", in: attachments))
    #expect(difference.width == 9)
    #expect(difference.height == 3)
  }

  @Test func attachmentsAreTheReferenceTheFailureAndTheDifference() throws {
    let reference = try Self.image(.white)
    let new = try Self.image(.white, changed: 1)
    let (_, attachments) = try #require(Diffing<Bitmap>.image.diffV2(reference, new))
    #expect(names(attachments) == ["reference.png", "failure.png", "difference.png"])
    #expect(try attachment("reference.png", in: attachments) == reference)
    #expect(try attachment("failure.png", in: attachments) == new)
  }

  @Test func storesPNGAndReadsItBack() throws {
    let bitmap = try Self.image(.white, changed: 7, to: RGBA(red: 1, green: 2, blue: 3, alpha: 4))
    let diffing = Diffing<Bitmap>.image
    let data = diffing.toData(bitmap)
    #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(diffing.fromData(data) == bitmap)
  }

  @Test func undecodableReferenceIsAMismatchWithTheReason() throws {
    let diffing = Diffing<Bitmap>.image
    let reference = diffing.fromData(Data("version https://git-lfs.github.com/spec/v1\n".utf8))
    let new = try Self.image(.white)
    let (message, attachments) = try #require(diffing.diffV2(reference, new))
    #expect(
      message == """
        Reference image could not be decoded. The file is a Git LFS pointer, not a PNG: the image \
        itself was not fetched. Run `git lfs pull` (and check that Git LFS is installed where the \
        tests run).
        """
    )
    #expect(names(attachments) == ["failure.png"])

    let truncated = diffing.fromData(diffing.toData(new).prefix(40))
    let (truncatedMessage, _) = try #require(diffing.diffV2(truncated, new))
    #expect(
      truncatedMessage
        == "Reference image could not be decoded. The data is not a valid PNG: the data ends early (truncated file)."
    )
    // Even a lenient diffing never lets an undecodable reference pass.
    let lenient = Diffing<Bitmap>.image(precision: 0, perceptualPrecision: 0)
    #expect(
      lenient.diffV2(diffing.fromData(Data()), new)?.0
        == "Reference image could not be decoded. The PNG data is empty (0 bytes)."
    )
  }

  @Test func snapshottingStoresPNGFiles() throws {
    #expect(Snapshotting<Bitmap, Bitmap>.image.pathExtension == "png")
    #expect(Snapshotting<Bitmap, Bitmap>.image(precision: 0.9).pathExtension == "png")
    let lenient = Snapshotting<Bitmap, Bitmap>.image(perceptualPrecision: 0.99)
    let gray = RGBA(red: 128, green: 128, blue: 128)
    let nudged = try Self.image(gray, changed: 5, to: RGBA(red: 129, green: 128, blue: 128))
    #expect(lenient.diffing.diffV2(try Self.image(gray), nudged) == nil)
  }

  @Test func pullbackOntoAUserType() throws {
    struct Swatch { var color: RGBA }
    let strategy = Snapshotting<Bitmap, Bitmap>.image.pullback { (swatch: Swatch) in
      (try? Bitmap(width: 2, height: 2, filledWith: swatch.color))
        ?? Bitmap.undecodable(.emptyPNGData)
    }
    var produced: Bitmap?
    strategy.snapshot(Swatch(color: .white)).run { produced = $0 }
    #expect(produced == (try Bitmap(width: 2, height: 2, filledWith: .white)))
    #expect(strategy.pathExtension == "png")
  }
}

func names(_ attachments: [DiffAttachment]) -> [String] {
  attachments.compactMap {
    if case .data(_, let name) = $0 { return name }
    return nil
  }
}

func attachment(_ name: String, in attachments: [DiffAttachment]) throws -> Bitmap? {
  for case .data(let data, let attachmentName) in attachments where attachmentName == name {
    return try Bitmap(pngData: data)
  }
  return nil
}
