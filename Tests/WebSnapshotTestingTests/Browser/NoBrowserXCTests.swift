import Foundation
import RunRecord
import SnapshotTesting
import TestSupport
import XCTest

@testable import WebSnapshotTesting

/// The XCTest side of ``NoBrowserTests``.
final class NoBrowserXCTests: FailureCapturingTestCase {
  /// The XCTest entry point: one failure per assertion, naming the variable and the command.
  func testMissingChromiumFailsEachXCTestAssertion() {
    let failures = RunEnvironment.withOverride(NoBrowserTests.missingBrowser) {
      capturingFailures {
        assertSnapshot(of: WebTesting.solidPage("#fff"), as: .image, record: .never)
        assertSnapshot(of: WebTesting.solidPage("#fff"), as: .accessibilityTree, record: .never)
      }
    }
    XCTAssertEqual(failures.count, 2)
    for failure in failures {
      XCTAssertTrue(failure.message.contains("SNAPSHOT_TESTING_CHROMIUM"), failure.message)
      XCTAssertTrue(failure.message.contains("apt-get install chromium"), failure.message)
    }
  }
}
