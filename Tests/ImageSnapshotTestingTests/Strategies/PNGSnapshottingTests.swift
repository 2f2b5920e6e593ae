import Foundation
import SnapshotTesting
import Testing

@testable import ImageSnapshotTesting

@Suite struct PNGSnapshottingTests {
  @Test func sameBytesMatchWithoutDecoding() {
    // Not even a PNG: equal bytes are equal snapshots.
    let data = Data("same".utf8)
    #expect(Diffing<Data>.png().diffV2(data, data) == nil)
  }

  @Test func samePixelsInDifferentEncodingsMatch() throws {
    let pypngFile = try Fixtures.data("PNG/rgba8.png")
    let ourFile = try Bitmap(pngData: pypngFile).pngData()
    #expect(pypngFile != ourFile)
    #expect(Snapshotting<Data, Data>.png.diffing.diffV2(pypngFile, ourFile) == nil)
    #expect(Snapshotting<Data, Data>.png.pathExtension == "png")
  }

  @Test func differentPixelsUseTheImageMessages() throws {
    let reference = try Bitmap(width: 10, height: 10, filledWith: .white)
    var new = reference
    new[x: 0, y: 0] = .black
    let (message, attachments) = try #require(
      Snapshotting<Data, Data>.png.diffing.diffV2(try reference.pngData(), try new.pngData())
    )
    #expect(
      message == """
        Newly-taken snapshot does not match reference.
        1 of 100 pixels differ; the largest difference is ΔE*94 100.00.
        """
    )
    #expect(names(attachments) == ["reference.png", "failure.png", "difference.png"])
    let lenient = Snapshotting<Data, Data>.png(precision: 0.99)
    #expect(lenient.diffing.diffV2(try reference.pngData(), try new.pngData()) == nil)
  }

  @Test func badReferenceAndBadNewDataAreReported() throws {
    let good = try Bitmap(width: 1, height: 1, filledWith: .white).pngData()
    let diffing = Diffing<Data>.png()
    #expect(
      diffing.diffV2(Data("GIF89a".utf8), good)?.0
        == "Reference image could not be decoded. The data is not a valid PNG: the PNG signature is missing."
    )
    #expect(
      diffing.diffV2(good, Data())?.0
        == "Newly-taken snapshot could not be decoded. The PNG data is empty (0 bytes)."
    )
  }

  @Test func storesTheBytesUnchanged() throws {
    let file = try Fixtures.data("PNG/palette4.png")
    let diffing = Diffing<Data>.png()
    #expect(diffing.toData(file) == file)
    #expect(diffing.fromData(file) == file)
  }
}
