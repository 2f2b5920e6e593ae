import Foundation
import RunRecord
import Testing

@testable import ImageSnapshotTesting
@testable import SnapshotTesting

/// A precision outside `0...1`, or NaN, is a mistake in the test: it fails naming the parameter,
/// even for identical images, and never lets a different image pass.
@Suite struct ImagePrecisionTests {
  static let invalid: [(precision: Float, perceptual: Float, named: String)] = [
    (-0.5, 1, "precision is -0.5"),
    (1.5, 1, "precision is 1.5"),
    (.nan, 1, "precision is nan"),
    (1, -1, "perceptualPrecision is -1.0"),
    (1, .nan, "perceptualPrecision is nan"),
    (1, .infinity, "perceptualPrecision is inf"),
  ]

  static func verify(
    _ bitmap: Bitmap,
    as strategy: Snapshotting<Bitmap, Bitmap>,
    in root: URL,
    record: SnapshotTestingConfiguration.Record
  ) -> String? {
    RunEnvironment.withOverride([.artifacts: root.appendingPathComponent("artifacts").path])
    {
      verifySnapshot(
        of: bitmap,
        as: strategy,
        named: "image",
        record: record,
        snapshotDirectory: root.appendingPathComponent("references").path,
        testName: "precision()"
      )
    }
  }

  @Test(arguments: 0..<invalid.count)
  func failsForIdenticalImagesNamingTheParameter(_ index: Int) throws {
    let (precision, perceptual, named) = Self.invalid[index]
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: root) }
    let white = try Bitmap(width: 2, height: 2, filledWith: .white)
    #expect(Self.verify(white, as: .image, in: root, record: .all) != nil)
    let strategy = Snapshotting<Bitmap, Bitmap>.image(
      precision: precision,
      perceptualPrecision: perceptual
    )

    let message = try #require(Self.verify(white, as: strategy, in: root, record: .never))

    #expect(
      message.hasPrefix("The image strategy's \(named), but it must be a number from 0 through 1")
    )
    #expect(message.contains("nothing was recorded"))
  }

  @Test func aBlackPixelOnWhiteNeverPassesAndNothingIsRecorded() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: root) }
    let white = try Bitmap(width: 2, height: 2, filledWith: .white)
    #expect(Self.verify(white, as: .image, in: root, record: .all) != nil)
    let reference = root.appendingPathComponent("references/precision.image.png")
    let recorded = try Data(contentsOf: reference)
    var dotted = white
    dotted[x: 0, y: 0] = .black

    for record in [SnapshotTestingConfiguration.Record.all, .failed, .missing, .never] {
      let message = Self.verify(dotted, as: .image(precision: -0.5), in: root, record: record)
      #expect(message?.hasPrefix("The image strategy's precision is -0.5") == true)
    }
    #expect(try Data(contentsOf: reference) == recorded)
  }

  @Test func thePNGStrategyChecksToo() throws {
    let png = try Bitmap(width: 1, height: 1, filledWith: .white).pngData()
    withKnownIssue {
      let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
      defer { try? FileManager.default.removeItem(at: root) }
      _ = RunEnvironment.withOverride([.artifacts: root.path]) {
        expectSnapshot(
          of: png,
          as: .png(precision: 1, perceptualPrecision: 2),
          named: "png",
          record: .never
        )
      }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.hasPrefix("The image strategy's perceptualPrecision is 2.0")
      }
    }
  }

  @Test func boundsAreValid() {
    #expect(ImageTolerances(precision: 0, perceptualPrecision: 0).problem == nil)
    #expect(ImageTolerances(precision: 1, perceptualPrecision: 1).problem == nil)
    #expect(ImageTolerances(precision: 0.99, perceptualPrecision: 0.98).problem == nil)
  }
}
