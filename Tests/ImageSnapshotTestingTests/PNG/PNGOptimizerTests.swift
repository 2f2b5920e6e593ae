import Foundation
import PNGCodec
import TestSupport
import Testing

@testable import ImageSnapshotTesting

extension PNGOptimizationOutcome {
  /// The re-encoding, or `nil` when the file was kept.
  var optimization: PNGOptimization? {
    if case .optimized(let optimization) = self { return optimization }
    return nil
  }
}

/// `PNGOptimizer` is `optimize`'s core; the command itself is tested in SnapshotReviewTests.
@Suite struct PNGOptimizerTests {
  @Test(arguments: ["rgba8-interlaced", "gray8", "palette2-trns"])
  func filesOfAtMostEightBitsAreReencodedWithTheSamePixels(name: String) throws {
    let original = try Fixtures.data("PNG/\(name).png")
    let optimization = try #require(try PNGOptimizer.optimize(original).optimization)
    #expect(optimization.originalSize == original.count)
    #expect(optimization.savedBytes == original.count - optimization.optimized.count)
    #expect(try Bitmap(pngData: optimization.optimized) == Bitmap(pngData: original))
    let before = try PNGDecoder.decodeFullDepth(original)
    let after = try PNGDecoder.decodeFullDepth(optimization.optimized)
    #expect(before == after)
  }

  @Test func anOptimizedFileDoesNotShrinkAgain() throws {
    let once = try #require(
      try PNGOptimizer.optimize(Fixtures.data("PNG/rgba8.png")).optimization
    ).optimized
    let twice = try #require(try PNGOptimizer.optimize(once).optimization)
    #expect(!twice.shrinks)
    #expect(twice.optimized == once)
    #expect(twice.savedBytes == 0)
  }

  /// References written by the libpng encoder that the libdeflate one replaced get the new
  /// encoding from `optimize`, byte for byte what recording them now writes.
  @Test func referencesFromThePreviousEncoderGetTheNewEncoding() throws {
    var shrunk = 0
    for (name, bitmap) in try SmallestEncodingTests.generatedImages() {
      let previous = try bitmap.rgbaBytes.withUnsafeBufferPointer { pixels in
        try PNGEncoder.smallestWithLibpng(rgba: pixels, width: bitmap.width, height: bitmap.height)
      }
      let optimization = try #require(try PNGOptimizer.optimize(previous).optimization, "\(name)")
      #expect(optimization.optimized == (try bitmap.pngData()), "\(name)")
      #expect(optimization.savedBytes >= 0, "\(name)")
      if optimization.shrinks { shrunk += 1 }
    }
    // Most of them shrink (the corpus of the benchmarks by 5%); the rest stay as large.
    #expect(shrunk >= 8, "\(shrunk) files shrank")
  }

  /// Before, these became 8-bit files: the low byte of every sample was lost.
  @Test(arguments: ["rgba16", "rgb16-interlaced", "gray-alpha16", "gray16"])
  func sixteenBitFilesWithLowBytesAreKept(name: String) throws {
    let original = try Fixtures.data("PNG/\(name).png")
    #expect(try PNGOptimizer.optimize(original) == .kept(.sixteenBitSamples))
  }

  /// A 16-bit file whose every sample is an 8-bit one widened (0xABAB) loses nothing in 8 bits.
  @Test func sixteenBitFilesThatEightBitsHoldAreOptimized() throws {
    let wide = HandBuiltPNG.make(
      width: 2,
      height: 2,
      bitDepth: 16,
      colorType: 6,
      rows: [
        [0x12, 0x12, 0x34, 0x34, 0x56, 0x56, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0x80, 0x80],
        [0xAB, 0xAB, 0xCD, 0xCD, 0xEF, 0xEF, 0xFF, 0xFF, 1, 1, 2, 2, 3, 3, 0xFF, 0xFF],
      ]
    )
    let optimization = try #require(try PNGOptimizer.optimize(wide).optimization)
    #expect(
      try PNGDecoder.decodeFullDepth(optimization.optimized) == PNGDecoder.decodeFullDepth(wide)
    )
    // One low byte off by one is enough to keep the file.
    var rows = [[UInt8]](repeating: [UInt8](repeating: 0x77, count: 16), count: 2)
    rows[1][13] = 0x78
    let almost = HandBuiltPNG.make(width: 2, height: 2, bitDepth: 16, colorType: 6, rows: rows)
    #expect(try PNGOptimizer.optimize(almost) == .kept(.sixteenBitSamples))
  }

  @Test func fullDepthDecodingWidensSmallSamplesAndKeepsSixteenBitOnes() throws {
    let eightBit = HandBuiltPNG.make(
      width: 1,
      height: 1,
      bitDepth: 8,
      colorType: 2,
      rows: [[0xAB, 0x01, 0xFF]]
    )
    let decoded = try PNGDecoder.decodeFullDepth(eightBit)
    #expect(decoded.width == 1 && decoded.height == 1)
    #expect(decoded.samples == [0xAB, 0xAB, 0x01, 0x01, 0xFF, 0xFF, 0xFF, 0xFF])
    let sixteenBit = HandBuiltPNG.make(
      width: 1,
      height: 1,
      bitDepth: 16,
      colorType: 0,
      rows: [[0x12, 0x34]]
    )
    #expect(
      try PNGDecoder.decodeFullDepth(sixteenBit).samples == [
        0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0xFF, 0xFF,
      ]
    )
    #expect(throws: PNGCodecError.empty) { try PNGDecoder.decodeFullDepth(Data()) }
  }

  /// Before, only the default image survived and the frames were dropped.
  @Test func animatedFilesAreKept() throws {
    let frame: [[UInt8]] = [[255, 0, 0, 255, 0, 255, 0, 255]]
    let animated = HandBuiltPNG.make(
      width: 2,
      height: 1,
      bitDepth: 8,
      colorType: 6,
      rows: frame,
      beforeData: [
        ("acTL", HandBuiltPNG.bigEndian(UInt32(2)) + HandBuiltPNG.bigEndian(UInt32(0))),
        ("fcTL", HandBuiltPNG.frameControl(sequence: 0, width: 2, height: 1)),
      ],
      afterData: [
        ("fcTL", HandBuiltPNG.frameControl(sequence: 1, width: 2, height: 1)),
        (
          "fdAT",
          HandBuiltPNG.bigEndian(UInt32(2))
            + HandBuiltPNG.imageData([[0, 0, 255, 255] + [0, 0, 0, 0]])
        ),
      ]
    )
    #expect(try PNGDecoder.decode(animated).width == 2, "the default image decodes")
    #expect(try PNGOptimizer.optimize(animated) == .kept(.animation))
    #expect(
      PNGKeptReason.animation.description == "an animated PNG (APNG): its frames would be lost"
    )
  }

  /// Before, these chunks were dropped silently.
  @Test func filesWithChunksThatChangeHowTheyAreShownAreKept() throws {
    let plain = try Fixtures.data("PNG/rgba8-interlaced.png")
    let profile = HandBuiltPNG.zlibStored([UInt8](repeating: 0, count: 200))
    let chunks: [HandBuiltPNG.Chunk] = [
      ("gAMA", HandBuiltPNG.bigEndian(UInt32(45_455))),
      ("cHRM", (0..<8).flatMap { _ in HandBuiltPNG.bigEndian(UInt32(30_000)) }),
      ("iCCP", Array("profile".utf8) + [0, 0] + profile),
      ("tEXt", Array("Comment".utf8) + [0] + Array("kept out".utf8)),
      ("gAMA", HandBuiltPNG.bigEndian(UInt32(45_455))),
    ]
    let marked = HandBuiltPNG.inserting(chunks, afterHeaderOf: plain)
    let outcome = try PNGOptimizer.optimize(marked)
    #expect(outcome == .kept(.meaningfulChunks(["gAMA", "cHRM", "iCCP"])))
    guard case .kept(let reason) = outcome else { return }
    #expect(
      reason.description
        == "chunks the new file would drop: gAMA (gamma), cHRM (chromaticities), "
        + "iCCP (colour profile)"
    )
    for (type, data) in [
      ("sRGB", [0]), ("sBIT", [8, 8, 8, 8]), ("pHYs", [0, 0, 11, 19, 0, 0, 11, 19, 1]),
      ("prIv", [1, 2, 3]),
    ] as [(String, [UInt8])] {
      let one = HandBuiltPNG.inserting([(type, data)], afterHeaderOf: plain)
      #expect(try PNGOptimizer.optimize(one) == .kept(.meaningfulChunks([type])), "\(type)")
    }
    #expect(
      PNGKeptReason.meaningfulChunks(["prIv"]).description
        == "a chunk the new file would drop: prIv"
    )
  }

  @Test func textTimeAndApplesIndexAreDropped() throws {
    let plain = try Fixtures.data("PNG/rgba8-interlaced.png")
    let chunks: [HandBuiltPNG.Chunk] = [
      ("tEXt", Array("Comment".utf8) + [0] + Array("hello".utf8)),
      ("tIME", [0x07, 0xEA, 11, 24, 5, 0, 0]),
      ("iDOT", [UInt8](repeating: 0, count: 28)),
    ]
    let marked = HandBuiltPNG.inserting(chunks, afterHeaderOf: plain)
    let optimization = try #require(try PNGOptimizer.optimize(marked).optimization)
    #expect(PNGChunkList(optimization.optimized)?.types.contains("tEXt") == false)
    #expect(try Bitmap(pngData: optimization.optimized) == Bitmap(pngData: plain))
  }

  @Test func chunkListsReadTheFramingOnly() throws {
    let plain = try Fixtures.data("PNG/rgba8.png")
    #expect(PNGChunkList(plain) == PNGChunkList(types: ["IHDR", "IDAT", "IEND"], bitDepth: 8))
    #expect(PNGChunkList(Data()) == nil)
    #expect(PNGChunkList(plain.prefix(20)) == nil)
    // A chunk longer than the data.
    var broken = [UInt8](plain)
    broken[33] = 0x7F
    #expect(PNGChunkList(Data(broken)) == nil)
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
