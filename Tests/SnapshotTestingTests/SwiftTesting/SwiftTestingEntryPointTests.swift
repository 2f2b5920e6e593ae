import Foundation
import RunRecord
import Testing

@_spi(Internals) @testable import SnapshotTesting

/// The public entry points inside Swift Testing: failures become issues at the caller's line.
@Suite struct SwiftTestingEntryPointTests {
  @Test func assertSnapshotRecordsAnIssueAtTheCallSite() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old\n", to: "SwiftTestingEntryPointTests.1.txt")
      let line = #line + 4
      withKnownIssue {
        RunEnvironment.withOverride(sandbox.environment) {
          withSnapshotTesting(record: .never) {
            assertSnapshot(of: "new\n", as: .lines, testName: "SwiftTestingEntryPointTests")
          }
        }
      } matching: { issue in
        issue.sourceLocation?.line == line
          && issue.comments.contains { $0.rawValue.hasPrefix("No reference was found at") }
      }
    }
  }

  @Test func expectSnapshotReturnsWhetherItMatched() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      var matched = true
      withKnownIssue {
        RunEnvironment.withOverride(sandbox.environment) {
          matched = expectSnapshot(of: "v", as: .lines, record: .never)
        }
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("the record mode is \"never\"") }
      }
      #expect(!matched)
    }
  }

  @Test func expectSnapshotMatchesACommittedReference() {
    #expect(expectSnapshot(of: "committed reference\n", as: .lines, record: .never))
  }

  @Test func requireSnapshotThrowsAfterRecordingOneIssue() throws {
    var reachedEnd = false
    try withKnownIssue {
      try withSnapshotTesting(record: .never) {
        try requireSnapshot(of: "never recorded", as: .lines, named: "absent")
        reachedEnd = true
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("the record mode is \"never\"") }
    }
    #expect(!reachedEnd)
  }

  @Test func requireSnapshotPassesOnMatch() throws {
    try requireSnapshot(of: "committed reference\n", as: .lines, record: .never)
  }

  @Test func assertSnapshotsWithNamedStrategies() {
    assertSnapshots(
      of: "one\ntwo\n",
      as: [
        "lines": .lines,
        "reversed": Snapshotting<String, String>.lines.pullback { String($0.reversed()) },
      ],
      record: .never
    )
  }

  @Test func assertSnapshotsWithAnArrayOfStrategies() {
    assertSnapshots(
      of: 42,
      as: [
        Snapshotting<String, String>.lines.pullback { (n: Int) in "\(n)" },
        Snapshotting<String, String>.lines.pullback { (n: Int) in "\(n * 2)" },
      ],
      record: .never
    )
  }
}
