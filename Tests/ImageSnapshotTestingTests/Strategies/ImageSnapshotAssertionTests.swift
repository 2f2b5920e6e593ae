import Foundation
import RunRecord
import Testing

@testable import ImageSnapshotTesting
@testable import SnapshotTesting

/// Image strategies through the real assertion pipeline, in a temporary snapshot folder.
@Suite struct ImageSnapshotAssertionTests {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("ImageSnapshotAssertionTests-\(UUID().uuidString)")

  func verify(
    _ bitmap: Bitmap,
    as strategy: Snapshotting<Bitmap, Bitmap> = .image,
    record: SnapshotTestingConfiguration.Record,
    testName: String = #function
  ) -> String? {
    RunEnvironment.withOverride([
      .artifacts: folder.appendingPathComponent("artifacts").path
    ]) {
      verifySnapshot(
        of: bitmap,
        as: strategy,
        named: "image",
        record: record,
        snapshotDirectory: folder.appendingPathComponent("references").path,
        testName: testName
      )
    }
  }

  func referenceURL(_ testName: String) -> URL {
    folder.appendingPathComponent("references/\(testName).image.png")
  }

  @Test func recordsAPNGThenMatchesIt() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let bitmap = try Bitmap(width: 3, height: 2, filledWith: RGBA(red: 9, green: 8, blue: 7))
    let recorded = verify(bitmap, record: .all)
    #expect(recorded != nil, "recording fails the assertion")
    let written = try Data(contentsOf: referenceURL("recordsAPNGThenMatchesIt"))
    #expect(try Bitmap(pngData: written) == bitmap)
    #expect(verify(bitmap, record: .never) == nil)
  }

  @Test func mismatchWritesTheDifferenceImageBesideTheFailure() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let reference = try Bitmap(width: 4, height: 4, filledWith: .white)
    _ = verify(reference, record: .all)
    var changed = reference
    changed[x: 2, y: 1] = .black
    let message = try #require(verify(changed, record: .never))
    #expect(message.hasPrefix(#"Snapshot "image" does not match reference."#))
    #expect(
      message.hasSuffix(
        """
        Newly-taken snapshot does not match reference.
        1 of 16 pixels differ; the largest difference is ΔE*94 100.00.
        """
      )
    )
    let artifacts = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("artifacts").path
    )
    let files = try FileManager.default.subpathsOfDirectory(
      atPath: folder.appendingPathComponent("artifacts").path
    )
    #expect(!artifacts.isEmpty)
    let differencePath = try #require(files.first { $0.hasSuffix(".difference.png") })
    let difference = try Bitmap(
      pngData: Data(
        contentsOf: folder.appendingPathComponent("artifacts").appendingPathComponent(
          differencePath
        )
      )
    )
    #expect(difference[x: 2, y: 1] == RGBA(red: 255, green: 0, blue: 0))
    #expect(files.contains { $0.hasSuffix(".reference.png") })
    #expect(files.contains { $0.hasSuffix(".failure.png") })
  }

  @Test func lenientStrategyPassesSmallChanges() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let gray = RGBA(red: 128, green: 128, blue: 128)
    _ = verify(try Bitmap(width: 4, height: 4, filledWith: gray), record: .all)
    let nudged = try Bitmap(width: 4, height: 4, filledWith: RGBA(red: 129, green: 128, blue: 128))
    #expect(verify(nudged, as: .image(perceptualPrecision: 0.99), record: .never) == nil)
    #expect(verify(nudged, record: .never) != nil)
  }

  @Test func corruptReferenceFailsWithTheReason() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let bitmap = try Bitmap(width: 2, height: 2, filledWith: .white)
    _ = verify(bitmap, record: .all)
    let url = referenceURL("corruptReferenceFailsWithTheReason")
    try Data(try Data(contentsOf: url).prefix(30)).write(to: url)
    let message = try #require(verify(bitmap, record: .never))
    #expect(
      message.contains(
        "Reference image could not be decoded. The data is not a valid PNG: the data ends early (truncated file)."
      )
    )
  }

  @Test func gitLFSPointerReferenceIsNamed() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let bitmap = try Bitmap(width: 2, height: 2, filledWith: .white)
    _ = verify(bitmap, record: .all)
    try Data("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 10\n".utf8)
      .write(to: referenceURL("gitLFSPointerReferenceIsNamed"))
    let message = try #require(verify(bitmap, record: .never))
    #expect(message.contains("Git LFS pointer"))
  }

  /// Files from other encoders (pypng: 16-bit, interlaced, gray with alpha, palettes), as
  /// upstream or an image editor may have written them, with the pixels they hold.
  @Test(arguments: [
    "rgb16", "rgba16", "rgb16-interlaced", "rgba8-interlaced", "gray-alpha8", "gray-alpha16",
    "gray2-interlaced", "palette8-trns-interlaced",
  ])
  func referencesFromOtherEncodersStillMatchTheSamePixels(name: String) throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let reference = try Fixtures.data("PNG/\(name).png")
    let pixels = try [UInt8](Fixtures.data("PNG/\(name).rgba"))
    let bitmap = try Bitmap(width: 9, height: 7, rgbaBytes: pixels)
    let url = referenceURL("otherEncoder")
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try reference.write(to: url)
    #expect(verify(bitmap, record: .never, testName: "otherEncoder") == nil)
    #expect(
      verify(
        bitmap,
        as: .image(perceptualPrecision: 0.98),
        record: .never,
        testName: "otherEncoder"
      )
        == nil
    )
    // A match leaves the reference as it was written.
    #expect(try Data(contentsOf: url) == reference)
    var changed = bitmap
    changed[x: 4, y: 3] = RGBA(red: 1, green: 2, blue: 3, alpha: 4)
    #expect(verify(changed, record: .never, testName: "otherEncoder") != nil)
  }
}
