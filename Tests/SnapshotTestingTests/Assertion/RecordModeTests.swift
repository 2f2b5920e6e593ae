import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

@Suite struct RecordModeTests {
  @Test func missingRecordsAndFailsThenMatches() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let first = try #require(
        sandbox.verify("hello\n", as: .lines, named: "greeting", record: .missing)
      )
      #expect(first.hasPrefix("No reference was found on disk. Recorded the snapshot: …"))
      // On Linux the new reference is named by its path: Linux has no `open` command.
      #expect(
        first.contains("\n\n\"\(sandbox.reference("sandbox.greeting.txt").path)\"\n\n")
      )
      #expect(!first.contains("open \"") && !first.contains("file://"))
      #expect(first.hasSuffix(#"Re-run "sandbox" to compare against the new reference."#))
      #expect(contents(of: sandbox.reference("sandbox.greeting.txt")) == "hello\n")

      #expect(sandbox.verify("hello\n", as: .lines, named: "greeting", record: .missing) == nil)
    }
  }

  @Test func missingDoesNotTouchAMismatchingReference() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old", to: "sandbox.1.txt")
      let message = try #require(sandbox.verify("new", as: .lines, record: .missing))
      #expect(message.hasPrefix("Snapshot does not match reference.\n"))
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == "old")
    }
  }

  @Test func allRecordsEvenMatchingSnapshotsAndFails() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("same", to: "sandbox.1.txt")
      let message = try #require(sandbox.verify("same", as: .lines, record: .all))
      #expect(message.hasPrefix(#"Record mode is "all", so every snapshot is recorded and fails."#))
      let changed = try #require(sandbox.verify("changed", as: .lines, named: "x", record: .all))
      #expect(changed.contains("sandbox.x.txt"))
      #expect(contents(of: sandbox.reference("sandbox.x.txt")) == "changed")
    }
  }

  @Test func failedRerecordsOnlyMismatches() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("keep", to: "sandbox.1.txt")
      try sandbox.write("old", to: "sandbox.2.txt")
      #expect(sandbox.verify("keep", as: .lines, record: .failed) == nil)
      let message = try #require(sandbox.verify("new", as: .lines, record: .failed))
      #expect(
        message.hasPrefix(
          "Snapshot does not match reference. A new snapshot was automatically recorded.\n"
        )
      )
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == "keep")
      #expect(contents(of: sandbox.reference("sandbox.2.txt")) == "new")
    }
  }

  @Test func failedRecordsMissingReferences() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let message = try #require(sandbox.verify("fresh", as: .lines, record: .failed))
      #expect(message.hasPrefix("No reference was found on disk."))
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == "fresh")
    }
  }

  @Test func neverWritesNothing() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let message = try #require(sandbox.verify("x", as: .lines, record: .never))
      #expect(
        message == """
          No reference was found at "\(sandbox.reference("sandbox.1.txt").path)". Nothing was \
          recorded because the record mode is "never".
          """
      )
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))

      try sandbox.write("old", to: "sandbox.2.txt")
      #expect(sandbox.verify("new", as: .lines, record: .never) != nil)
      #expect(contents(of: sandbox.reference("sandbox.2.txt")) == "old")
    }
  }

  @Test func onCIWithNothingConfiguredAMissingReferenceIsNotWritten() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.continuousIntegration: "true"])
      let message = try #require(sandbox.verify("x", as: .lines))
      #expect(
        message.hasPrefix(
          """
          No reference was found at "\(sandbox.reference("sandbox.1.txt").path)". It was not \
          recorded because this is a CI run
          """
        )
      )
      #expect(message.contains("SNAPSHOT_TESTING_RECORD=missing"))
      #expect(!FileManager.default.fileExists(atPath: sandbox.reference("sandbox.1.txt").path))
    }
  }

  @Test func onCIAnExplicitModeStillRecords() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(
        root: root,
        environment: [.continuousIntegration: "true", .record: "missing"]
      )
      #expect(sandbox.verify("x", as: .lines)?.hasPrefix("No reference was found on disk.") == true)
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == "x")
    }
  }

  @Test func locallyWithNothingConfiguredMissingReferencesAreRecorded() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [:])
      #expect(sandbox.verify("x", as: .lines) != nil)
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == "x")
    }
  }

  @Test func environmentVariableSetsTheMode() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.record: "never"])
      #expect(sandbox.verify("x", as: .lines)?.contains(#"the record mode is "never""#) == true)
    }
  }

  @Test func invalidEnvironmentVariableFailsTheAssertion() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.record: "true"])
      let message = try #require(sandbox.verify("x", as: .lines))
      #expect(message.hasPrefix(#"SNAPSHOT_TESTING_RECORD is set to "true""#))
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func recordArgumentBeatsTheScope() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      withSnapshotTesting(record: .all) {
        #expect(sandbox.verify("x", as: .lines, record: .never)?.contains("never") == true)
      }
    }
  }
}
