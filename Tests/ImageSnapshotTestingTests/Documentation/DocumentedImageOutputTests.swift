import Foundation
import SnapshotTesting
import TestSupport
import Testing

@testable import ImageSnapshotTesting

/// The failure the Image article reads is what the image comparison reports.
@Suite struct DocumentedImageOutputTests {
  /// Three of a hundred grey pixels turned black, compared with the article's tolerances.
  @Test func theFailureTheArticleReads() throws {
    let shown = try codeBlock(
      in: "Sources/ImageSnapshotTesting/Documentation.docc/ImageSnapshots.md",
      after: "## Reading a failure"
    )
    let gray = RGBA(red: 128, green: 128, blue: 128)
    let diffing = Diffing<Bitmap>.image(precision: 0.98, perceptualPrecision: 0.9)
    let (message, _) = try #require(
      diffing.diffV2(
        try ImageDiffingTests.image(gray),
        try ImageDiffingTests.image(gray, changed: 3)
      )
    )
    #expect(message == shown)
  }
}
