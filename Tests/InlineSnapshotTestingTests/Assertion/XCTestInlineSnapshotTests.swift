import Foundation
import Testing
import XCTest

@_spi(Internals) import SnapshotTesting
@testable import InlineSnapshotTesting

/// The same assertion inside XCTest: failures go to `XCTFail`, recordings to the source file.
final class XCTestInlineSnapshotTests: XCTestCase {
  private var failures: [(description: String, line: Int)] = []

  override func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    // Only the assertions under test report against the fixture; the test's own checks must
    // still fail the test.
    guard filePath == "\(FixtureRun.fileName)" else {
      super.recordFailure(
        withDescription: description,
        inFile: filePath,
        atLine: lineNumber,
        expected: expected
      )
      return
    }
    // corelibs XCTest prefixes an `XCTFail` message with "failed - ".
    let message =
      description.hasPrefix("failed - ") ? String(description.dropFirst(9)) : description
    failures.append((message, lineNumber))
  }

  static let source = """
    func testSeveral() {
      assertInlineSnapshot(of: 1, as: .description)
      assertInlineSnapshot(of: [1, 2], as: .dump) {
        \"\"\"
        old
        \"\"\"
      }
      assertInlineSnapshot(of: "x", as: .lines) {
        \"\"\"
        x
        \"\"\"
      }
    }

    """

  func testRecordsSeveralSnapshotsInOneFunction() throws {
    let run = try FixtureRun(source: Self.source)
    let calls = (1...3).map {
      callPosition(of: "assertInlineSnapshot", in: Self.source, occurrence: $0)
    }
    run.run {
      withSnapshotTesting(record: .failed) {
        assertInlineSnapshot(
          of: "1",
          as: .lines,
          file: FixtureRun.fileName,
          line: UInt(calls[0].line),
          column: UInt(calls[0].column)
        )
        assertInlineSnapshot(
          of: "▿ 2 elements\n  - 1\n  - 2",
          as: .lines,
          matches: { "old" },
          file: FixtureRun.fileName,
          line: UInt(calls[1].line),
          column: UInt(calls[1].column)
        )
        assertInlineSnapshot(
          of: "x",
          as: .lines,
          matches: { "x" },
          file: FixtureRun.fileName,
          line: UInt(calls[2].line),
          column: UInt(calls[2].column)
        )
      }
    }
    XCTAssertEqual(
      failures.map(\.description),
      [
        """
        Automatically recorded a new snapshot. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}
          +1

        Re-run "testRecordsSeveralSnapshotsInOneFunction()" to assert against the newly-recorded \
        snapshot.
        """,
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,1 +1,3 @@
          \u{2212}old
          +▿ 2 elements
          +  - 1
          +  - 2

        A new snapshot was automatically recorded.
        """,
      ]
    )
    XCTAssertEqual(failures.last?.line, 3, "The mismatch points at the closure's brace.")
    failures.removeAll()

    XCTAssertEqual(run.writePending(), [])
    XCTAssertEqual(
      try run.text(),
      """
      func testSeveral() {
        assertInlineSnapshot(of: 1, as: .description) {
          \"\"\"
          1
          \"\"\"
        }
        assertInlineSnapshot(of: [1, 2], as: .dump) {
          \"\"\"
          ▿ 2 elements
            - 1
            - 2
          \"\"\"
        }
        assertInlineSnapshot(of: "x", as: .lines) {
          \"\"\"
          x
          \"\"\"
        }
      }

      """
    )
  }

  func testMismatchFailsWithTheLineDiff() throws {
    let run = try FixtureRun(source: Self.source)
    let call = callPosition(of: "assertInlineSnapshot", in: Self.source, occurrence: 3)
    run.run {
      assertInlineSnapshot(
        of: "y",
        as: .lines,
        matches: { "x" },
        file: FixtureRun.fileName,
        line: UInt(call.line),
        column: UInt(call.column)
      )
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(
      failures.first?.description,
      "Snapshot did not match. Difference: …\n\n  @@ \u{2212}1,1 +1,1 @@\n  \u{2212}x\n  +y"
    )
    run.writePending()
    XCTAssertEqual(try run.text(), Self.source)
  }

  func testCustomMessageReplacesTheHeadline() throws {
    let run = try FixtureRun(source: Self.source)
    let call = callPosition(of: "assertInlineSnapshot", in: Self.source, occurrence: 3)
    run.run {
      assertInlineSnapshot(
        of: "y",
        as: .lines,
        message: "Greeting changed",
        matches: { "x" },
        file: FixtureRun.fileName,
        line: UInt(call.line),
        column: UInt(call.column)
      )
    }
    XCTAssertEqual(
      failures.map(\.description),
      ["Greeting changed\n\n  @@ \u{2212}1,1 +1,1 @@\n  \u{2212}x\n  +y"]
    )
  }

  // Upstream: `testRecordFailed_IncorrectExpectation`.
  func testRecordFailedReRecordsAnIncorrectExpectation() throws {
    let source = InlineFailureMessageTests.source(snapshot: "4")
    let run = try FixtureRun(source: source)
    let call = callPosition(of: "assertInlineSnapshot", in: source)
    run.run {
      withSnapshotTesting(record: .failed) {
        assertInlineSnapshot(
          of: 42,
          as: .json,
          matches: { "4" },
          file: FixtureRun.fileName,
          line: UInt(call.line),
          column: UInt(call.column)
        )
      }
    }
    XCTAssertEqual(
      failures.map(\.description),
      [
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}4
          +42

        A new snapshot was automatically recorded.
        """
      ]
    )
    XCTAssertEqual(run.writePending(), [])
    XCTAssertEqual(try run.text(), InlineFailureMessageTests.source(snapshot: "42"))
  }

  // Upstream: `testRecordFailed_MissingExpectation`.
  func testRecordFailedRecordsAMissingExpectation() throws {
    let source = InlineFailureMessageTests.source(snapshot: nil)
    let run = try FixtureRun(source: source)
    let call = callPosition(of: "assertInlineSnapshot", in: source)
    run.run {
      withSnapshotTesting(record: .failed) {
        assertInlineSnapshot(
          of: 42,
          as: .json,
          file: FixtureRun.fileName,
          line: UInt(call.line),
          column: UInt(call.column)
        )
      }
    }
    XCTAssertEqual(
      failures.map(\.description),
      [
        """
        Automatically recorded a new snapshot. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}
          +42

        Re-run "testRecordFailedRecordsAMissingExpectation()" to assert against the \
        newly-recorded snapshot.
        """
      ]
    )
    XCTAssertEqual(run.writePending(), [])
    XCTAssertEqual(try run.text(), InlineFailureMessageTests.source(snapshot: "42"))
  }
}
