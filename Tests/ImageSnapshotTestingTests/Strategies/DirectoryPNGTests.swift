import Foundation
import SnapshotTesting
import Testing

@testable import ImageSnapshotTesting

/// The image module's entry in a folder snapshot's comparison table: PNG files by their pixels.
@Suite struct DirectoryPNGTests {
  @Test func pngFilesInAFolderCompareByPixelsWithTheImageEntry() throws {
    let pypngFile = try Fixtures.data("PNG/rgba8.png")
    let ourFile = try Bitmap(pngData: pypngFile).pngData()
    let reference = DirectorySnapshot(files: ["icons/a.png": pypngFile])
    let reencoded = DirectorySnapshot(files: ["icons/a.png": ourFile])
    // By bytes the two encodings differ; by pixels they are the same image.
    let byBytes = try #require(Diffing<DirectorySnapshot>.directory().diffV2(reference, reencoded))
    #expect(byBytes.0.contains("~ icons/a.png"))
    #expect(
      Diffing<DirectorySnapshot>.directory(comparing: ["png": .png()]).diffV2(reference, reencoded)
        == nil
    )
  }

  @Test func aChangedPNGInAFolderCarriesTheImageMessageAndItsImages() throws {
    let white = try Bitmap(width: 10, height: 10, filledWith: .white)
    var dotted = white
    dotted[x: 0, y: 0] = .black
    let (message, attachments) = try #require(
      Diffing<DirectorySnapshot>.directory(comparing: ["PNG": .png()]).diffV2(
        DirectorySnapshot(files: ["icons/a.png": try white.pngData()]),
        DirectorySnapshot(files: ["icons/a.png": try dotted.pngData()])
      )
    )
    #expect(
      message.hasSuffix(
        """
        --- icons/a.png
        Newly-taken snapshot does not match reference.
        1 of 100 pixels differ; the largest difference is ΔE*94 100.00.
        """
      )
    )
    #expect(
      attachments.map(\.fileName) == [
        "difference.patch", "icons-a-png-reference.png", "icons-a-png-failure.png",
        "icons-a-png-difference.png",
      ]
    )
  }
}

extension DiffAttachment {
  fileprivate var fileName: String? {
    if case .data(_, let name) = self { return name }
    return nil
  }
}
