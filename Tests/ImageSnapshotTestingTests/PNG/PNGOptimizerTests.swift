import Foundation
import PNGCodec
import Testing

@testable import ImageSnapshotTesting

/// `PNGOptimizer` is `optimize`'s core; the command itself is tested in SnapshotReviewTests.
@Suite struct PNGOptimizerTests {
  @Test(arguments: ["rgba16", "rgb16-interlaced", "gray-alpha16", "rgba8-interlaced"])
  func filesFromOtherEncodersShrinkAndKeepTheirPixels(name: String) throws {
    let original = try Fixtures.data("PNG/\(name).png")
    let optimization = try PNGOptimizer.optimize(original)
    #expect(optimization.originalSize == original.count)
    #expect(optimization.shrinks)
    #expect(optimization.savedBytes == original.count - optimization.optimized.count)
    #expect(try Bitmap(pngData: optimization.optimized) == Bitmap(pngData: original))
  }

  @Test func anOptimizedFileDoesNotShrinkAgain() throws {
    let once = try PNGOptimizer.optimize(Fixtures.data("PNG/rgba8.png")).optimized
    let twice = try PNGOptimizer.optimize(once)
    #expect(!twice.shrinks)
    #expect(twice.optimized == once)
    #expect(twice.savedBytes == 0)
  }

  @Test func badFilesThrowTheDecodingError() throws {
    #expect(throws: PNGCodecError.empty) { try PNGOptimizer.optimize(Data()) }
    #expect(throws: PNGCodecError.invalid(reason: "the data ends early (truncated file)")) {
      try PNGOptimizer.optimize(Fixtures.data("PNG/rgba8.png").prefix(60))
    }
    #expect(throws: PNGCodecError.tooLarge(width: 100_000, height: 1)) {
      try PNGOptimizer.optimize(Fixtures.data("PNG/bad-huge-side.png"))
    }
  }
}
