import Foundation
import RunRecord
import TestSupport
import XCTest

@testable import ImageSnapshotTesting
@testable import SnapshotTesting

/// The image strategies' tolerances under XCTest: checks of what a test gave them, reported as a
/// failure at the assertion's line, and the new tolerances deciding matches.
final class ImageTolerancesXCTests: FailureCapturingTestCase {
  private let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)

  override func tearDown() {
    try? FileManager.default.removeItem(at: root)
    super.tearDown()
  }

  /// Runs `body` with references and artifacts under this test's temporary folder.
  private func inSandbox(_ body: () -> Void) {
    let environment: RunEnvironment = [
      .artifacts: root.appendingPathComponent("artifacts").path,
      .referenceDirectory: root.appendingPathComponent("references").path,
    ]
    RunEnvironment.withOverride(environment, operation: body)
  }

  func testANaNPrecisionFailsAtTheAssertionAndRecordsNothing() throws {
    let bitmap = try Bitmap(width: 1, height: 1, filledWith: .black)
    let line = #line + 4
    let failures = capturingFailures {
      inSandbox {
        withSnapshotTesting(record: .all) {
          assertSnapshot(of: bitmap, as: .image(perceptualPrecision: .nan), named: "nan")
        }
      }
    }
    XCTAssertEqual(failures.count, 1)
    let failure = try XCTUnwrap(failures.first)
    XCTAssertEqual(failure.line, line)
    XCTAssertTrue(
      failure.message.contains("The image strategy's perceptualPrecision is nan"),
      failure.message
    )
    XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("references").path))
  }

  func testABudgetAndMasksDecideTheMatch() throws {
    let reference = try Bitmap(width: 8, height: 8, filledWith: .white)
    var new = reference
    for x in 0..<4 { new[x: x, y: 0] = .black }
    let line = #line + 10
    let failures = capturingFailures {
      inSandbox {
        assertSnapshot(of: reference, as: .image, named: "budget", record: .all)
        assertSnapshot(of: new, as: .image(maxDifferentPixels: 4), named: "budget")
        assertSnapshot(
          of: new,
          as: .image(maxDifferentPixels: 1, masks: [Bitmap.Region(x: 0, y: 0, width: 3, height: 1)]),
          named: "budget"
        )
        assertSnapshot(of: new, as: .image(maxDifferentPixels: 3), named: "budget")
      }
    }
    XCTAssertEqual(failures.count, 2, "\(failures)")
    XCTAssertEqual(failures.last?.line, line)
    XCTAssertTrue(
      failures.last?.message.contains("4 pixels differ, more than the allowed 3.") == true,
      failures.last?.message ?? ""
    )
  }

  func testAMaskOutsideTheImageFailsNamingIt() throws {
    let bitmap = try Bitmap(width: 4, height: 4, filledWith: .white)
    let failures = capturingFailures {
      inSandbox {
        assertSnapshot(
          of: bitmap,
          as: .image(masks: [Bitmap.Region(x: 4, y: 0, width: 2, height: 2)]),
          named: "outside",
          record: .all
        )
      }
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.message.contains(
        "The image strategy's mask (x: 4, y: 0, width: 2, height: 2) lies outside the 4×4 image"
      ) == true,
      failures.first?.message ?? ""
    )
  }
}
