import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

@Suite struct FailureRecordTests {
  func pending(_ sandbox: SnapshotSandbox) -> [FailureRecord] {
    let (records, problems) = FailureRecordStore.load(
      from: ArtifactsFolder(root: sandbox.artifacts)
    )
    #expect(problems.isEmpty)
    return records
  }

  @Test func mismatchIsRecordedForReviewAndAMatchClearsIt() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old\n", to: "sandbox.greeting.txt")
      let message = try #require(
        sandbox.verify("new\n", as: .lines, named: "greeting", record: .never)
      )

      let record = try #require(pending(sandbox).first)
      #expect(pending(sandbox).count == 1)
      #expect(record.reason == .mismatch)
      #expect(record.kind == .text)
      #expect(record.pathExtension == "txt")
      #expect(record.headline == #"Snapshot "greeting" does not match reference."#)
      #expect(record.difference?.contains("−old\n+new") == true)
      #expect(
        record.diffToolCommand?.contains(sandbox.reference("sandbox.greeting.txt").path) == true
      )
      #expect(record.testName == "sandbox()")
      #expect(record.snapshotName == "greeting")
      #expect(record.referencePath == sandbox.reference("sandbox.greeting.txt").path)
      #expect(
        record.files == [
          FailureRecord.File(
            role: .newSnapshot,
            path: sandbox.artifact("sandbox.greeting.txt").path
          ),
          FailureRecord.File(
            role: .patch,
            path: sandbox.artifact("sandbox.greeting.difference.patch").path
          ),
        ]
      )
      #expect(record.message == message)
      #expect(record.testFilePath.hasSuffix("SnapshotSandbox.swift"))

      #expect(sandbox.verify("old\n", as: .lines, named: "greeting", record: .never) == nil)
      #expect(pending(sandbox).isEmpty)
    }
  }

  @Test func aLaterFailureOfTheSameReferenceReplacesTheRecord() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old\n", to: "sandbox.x.txt")
      _ = sandbox.verify("first\n", as: .lines, named: "x", record: .never)
      _ = sandbox.verify("second\n", as: .lines, named: "x", record: .never)
      #expect(pending(sandbox).count == 1)
      #expect(
        contents(of: URL(fileURLWithPath: pending(sandbox)[0].newSnapshotPath ?? "")) == "second\n"
      )
    }
  }

  @Test func missingReferenceOnCIIsSavedAsAnArtifactAndRecorded() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.continuousIntegration: "1"])
      let message = try #require(sandbox.verify("fresh\n", as: .lines))
      let record = try #require(pending(sandbox).first)
      #expect(record.reason == .missing)
      #expect(record.headline == "No reference was found, and none was recorded on CI.")
      #expect(record.difference == nil && record.diffToolCommand == nil)
      let newSnapshotPath = try #require(record.newSnapshotPath)
      #expect(contents(of: URL(fileURLWithPath: newSnapshotPath)) == "fresh\n")
      #expect(message.hasSuffix(#"The new snapshot was saved to "\#(newSnapshotPath)"."#))
      #expect(!FileManager.default.fileExists(atPath: record.referencePath))
    }
  }

  @Test func rerecordedMismatchLeavesNothingToReview() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old\n", to: "sandbox.1.txt")
      #expect(sandbox.verify("new\n", as: .lines, record: .failed) != nil)
      #expect(pending(sandbox).isEmpty)
    }
  }

  @Test func recordingClearsAnEarlierFailure() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("v\n", as: .lines, named: "n", record: .never)
      #expect(pending(sandbox).count == 1)
      _ = sandbox.verify("v\n", as: .lines, named: "n", record: .all)
      #expect(pending(sandbox).isEmpty)
    }
  }
}
