import Foundation
import RunRecord
import TestSupport
import XCTest

@testable import SnapshotTesting

/// Reference variants under XCTest, where `withSnapshotTesting(variant:)` is the scope.
final class VariantXCTests: FailureCapturingTestCase {
  func testAScopeNamesTheReferenceAfterTheVariant() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      withSnapshotTesting(variant: .custom("fr_FR")) {
        let message = sandbox.verify("bonjour", as: .lines, testName: "testGreeting()")
        XCTAssertTrue(message?.contains("testGreeting.1.fr_FR.txt") ?? false, message ?? "passed")
      }
      XCTAssertEqual(fileNames(in: sandbox.snapshots), ["testGreeting.1.fr_FR.txt"])
    }
  }

  func testABadVariantIsAnXCTestFailureNamingIt() {
    let line = #line + 3
    let failures = capturingFailures {
      withSnapshotTesting(record: .never, variant: .custom("../escape")) {
        assertSnapshot(of: "text", as: .lines)
      }
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertTrue(
      failures.first?.message.contains(
        #"The reference variant "../escape" cannot name a reference file: it contains a path separator."#
      ) ?? false,
      failures.first?.message ?? "no failure"
    )
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("__Snapshots__", isDirectory: true)
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
  }

  func testAnAsyncScopeNamesTheReferenceAfterTheVariant() async {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      await withSnapshotTesting(variant: .operatingSystemAndArchitecture) {
        await Task.yield()
        _ = sandbox.verify("a", as: .lines, named: "x")
      }
      let name = SnapshotTestingConfiguration.Variant.operatingSystemAndArchitecture.name
      XCTAssertEqual(fileNames(in: sandbox.snapshots), ["sandbox.x.\(name).txt"])
    }
  }
}
