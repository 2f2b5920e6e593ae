import Foundation
import RunRecord
import TestSupport
import XCTest

@testable import SnapshotTesting

/// The public entry points inside XCTest: failures are XCTest failures at the assertion's line,
/// and unnamed snapshots are numbered per test.
final class XCTestEntryPointTests: FailureCapturingTestCase {
  func testMatchesCommittedReferences() {
    assertSnapshot(of: "first\n", as: .lines)
    assertSnapshot(of: "second\n", as: .lines)
    assertSnapshot(of: "named\n", as: .lines, named: "custom name")
  }

  func testMismatchIsAnXCTestFailureAtTheAssertionLine() throws {
    let line = #line + 3
    let failures = capturingFailures {
      withSnapshotTesting(record: .never) {
        assertSnapshot(of: "changed\n", as: .lines)
      }
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    // XCTest prefixes the description with "failed - ".
    XCTAssertTrue(
      failures.first?.message.contains("Snapshot does not match reference.") ?? false,
      failures.first?.message ?? "no failure"
    )
    XCTAssertTrue(
      failures.first?.message.contains("+changed") ?? false,
      failures.first?.message ?? "no failure"
    )
  }

  func testAValueTheStrategyCannotSnapshotFailsAndRecordsNothing() throws {
    struct Unencodable: Encodable {
      func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
      }
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("XCTestEntryPointTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let failures = capturingFailures {
      RunEnvironment.withOverride([.artifacts: folder.path]) {
        withSnapshotTesting(record: .all) {
          assertSnapshot(of: Unencodable(), as: .json, named: "unencodable")
        }
      }
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.message.contains("Could not encode Unencodable as JSON") ?? false,
      failures.first?.message ?? "no failure"
    )
    let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("__Snapshots__/XCTestEntryPointTests")
      .appendingPathComponent(
        "testAValueTheStrategyCannotSnapshotFailsAndRecordsNothing.unencodable.json"
      )
    XCTAssertFalse(FileManager.default.fileExists(atPath: reference.path))
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
  }

  func testRecordingWritesThroughALinkAndRefusesAReadOnlyReference() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("XCTestEntryPointTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("target.txt")
    try Data("old\n".utf8).write(to: target)
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("testRecording.linked.txt"),
      withDestinationURL: target
    )
    let record = { (name: String) in
      RunEnvironment.withOverride([.artifacts: folder.appendingPathComponent("a").path]) {
        verifySnapshot(
          of: "new\n",
          as: .lines,
          named: name,
          record: .all,
          snapshotDirectory: folder.path,
          testName: "testRecording()"
        )
      }
    }

    XCTAssertNotNil(record("linked"))
    XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "new\n")

    try Data("kept\n".utf8).write(to: folder.appendingPathComponent("testRecording.locked.txt"))
    let locked = folder.appendingPathComponent("testRecording.locked.txt")
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked.path)
    XCTAssertEqual(record("locked"), SnapshotFileError.readOnly(locked).description)
    XCTAssertEqual(try String(contentsOf: locked, encoding: .utf8), "kept\n")
  }

  func testVerifySnapshotReturnsNilOnMatch() {
    XCTAssertNil(verifySnapshot(of: "verified\n", as: .lines, record: .never))
  }

  @available(*, deprecated)
  func testDeprecatedMatchingSpellingStillWorks() {
    assertSnapshot(matching: "deprecated\n", as: .lines, record: false)
  }

  func testWaitStrategyWaitsOnTheMainThread() {
    XCTAssertTrue(Thread.isMainThread)
    let started = Date()
    assertSnapshot(of: "waited\n", as: .wait(for: 0.2, on: .lines), record: .never)
    XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.2)
  }

  func testMainQueueStrategyCompletesOnTheMainThread() {
    let onMain = Snapshotting<String, String>.lines.asyncPullback { (value: String) in
      Async { callback in
        let pending = UncheckedSendable((callback, value))
        DispatchQueue.main.async { pending.value.0(pending.value.1) }
      }
    }
    assertSnapshot(of: "main queue\n", as: onMain, record: .never)
  }
}

/// XCTest has no test cases with arguments: two assertions that use one reference, as a loop in a
/// test may, are not taken for two cases sharing it.
final class XCTestSharedReferenceTests: XCTestCase {
  func testAReferenceUsedTwiceInOneTestIsNotACollision() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("XCTestSharedReference-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for _ in 1...2 {
      let message = RunEnvironment.withOverride([.artifacts: folder.appendingPathComponent("a").path]) {
        verifySnapshot(
          of: "same\n", as: .lines, named: "shared", record: .missing,
          snapshotDirectory: folder.path, testName: "shared()")
      }
      XCTAssertFalse(message?.contains("Two cases") ?? false, message ?? "")
    }
    XCTAssertEqual(
      try String(contentsOf: folder.appendingPathComponent("shared.shared.txt"), encoding: .utf8),
      "same\n")
  }
}
