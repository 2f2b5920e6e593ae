import Foundation
import RunRecord
import TestSupport
import XCTest

@testable import SnapshotTesting

/// `.directory` through XCTest's entry point: a folder recorded and matched, and a bad folder
/// reported as an XCTest failure that names it.
final class DirectoryXCTests: FailureCapturingTestCase {
  func testAFolderIsRecordedThenMatchesAndAMissingOneFailsNamingIt() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("DirectoryXCTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("input", isDirectory: true)
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try Data("hello\n".utf8).write(to: input.appendingPathComponent("a.txt"))
    let snapshots = root.appendingPathComponent("__Snapshots__").path

    let recorded = RunEnvironment.withOverride([.artifacts: root.path]) {
      verifySnapshot(
        of: input,
        as: .directory,
        named: "site",
        record: .missing,
        snapshotDirectory: snapshots
      )
    }
    XCTAssertNotNil(recorded)
    let failures = capturingFailures {
      RunEnvironment.withOverride([.artifacts: root.path]) {
        let matched = verifySnapshot(
          of: input,
          as: .directory,
          named: "site",
          record: .never,
          snapshotDirectory: snapshots
        )
        XCTAssertNil(matched)
        assertSnapshot(of: root.appendingPathComponent("missing"), as: .directory, record: .all)
      }
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.message.contains(
        #"The folder "\#(root.path)/missing" to snapshot does not exist."#
      ) ?? false,
      failures.first?.message ?? "no failure"
    )
  }
}
