import Foundation
import RunRecord
import XCTest

@testable import ImageSnapshotTesting
@testable import SnapshotTesting

/// The precision check, reported as an XCTest failure at the assertion's line.
final class ImagePrecisionXCTests: XCTestCase {
  private var failures: [(message: String, line: Int)] = []
  private var isCapturing = false

  /// Captures the failures of the assertion under test only, so this test's own checks still fail.
  override func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    guard isCapturing else {
      return super.recordFailure(
        withDescription: description,
        inFile: filePath,
        atLine: lineNumber,
        expected: expected
      )
    }
    failures.append((description, lineNumber))
  }

  func testANaNPrecisionFailsAtTheAssertionAndRecordsNothing() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: root) }
    let bitmap = try Bitmap(width: 1, height: 1, filledWith: .black)
    let line = #line + 4
    isCapturing = true
    RunEnvironment.$override.withValue([.artifacts: root.path]) {
      withSnapshotTesting(record: .all) {
        assertSnapshot(of: bitmap, as: .image(perceptualPrecision: .nan), named: "nan")
      }
    }
    isCapturing = false
    XCTAssertEqual(failures.count, 1)
    let failure = try XCTUnwrap(failures.first)
    XCTAssertEqual(failure.line, line)
    XCTAssertTrue(
      failure.message.contains("The image strategy's perceptualPrecision is nan"),
      failure.message
    )
    let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent(
        "__Snapshots__/ImagePrecisionXCTests/testANaNPrecisionFailsAtTheAssertionAndRecordsNothing.nan.png"
      )
    XCTAssertFalse(FileManager.default.fileExists(atPath: reference.path))
    XCTAssertFalse(FileManager.default.fileExists(atPath: root.path))
  }
}
