import Foundation
import Testing

@testable import SnapshotTesting

@Suite struct FailureRecordTests {
  func pending(_ sandbox: SnapshotSandbox) -> [FailureRecord] {
    let (records, problems) = FailureRecord.load(artifactsRoot: sandbox.artifacts)
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
      #expect(record.kind == .mismatch)
      #expect(record.testName == "sandbox()")
      #expect(record.snapshotName == "greeting")
      #expect(record.referencePath == sandbox.reference("sandbox.greeting.txt").path)
      #expect(record.failedSnapshotPath == sandbox.artifact("sandbox.greeting.txt").path)
      #expect(
        record.attachmentPaths == [sandbox.artifact("sandbox.greeting.difference.patch").path]
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
        contents(of: URL(fileURLWithPath: pending(sandbox)[0].failedSnapshotPath)) == "second\n"
      )
    }
  }

  @Test func missingReferenceOnCIIsSavedAsAnArtifactAndRecorded() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: ["CI": "1"])
      let message = try #require(sandbox.verify("fresh\n", as: .lines))
      let record = try #require(pending(sandbox).first)
      #expect(record.kind == .missing)
      #expect(contents(of: URL(fileURLWithPath: record.failedSnapshotPath)) == "fresh\n")
      #expect(message.hasSuffix(#"The new snapshot was saved to "\#(record.failedSnapshotPath)"."#))
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
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("v\n", as: .lines, named: "n", record: .never)
      #expect(pending(sandbox).count == 1)
      _ = sandbox.verify("v\n", as: .lines, named: "n", record: .all)
      #expect(pending(sandbox).isEmpty)
    }
  }

  @Test func unreadableRecordsAreReportedNotFatal() throws {
    try withTemporaryDirectory { root in
      let folder = FailureRecord.folder(artifactsRoot: root)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("{ not json".utf8).write(to: folder.appendingPathComponent("broken.json"))
      let (records, problems) = FailureRecord.load(artifactsRoot: root)
      #expect(records.isEmpty)
      #expect(problems.count == 1)
      #expect(problems.first?.hasPrefix(folder.appendingPathComponent("broken.json").path) == true)
    }
  }
}

@Suite struct ReferenceUsageLogTests {
  @Test func referencesFromConcurrentAssertionsAreLoggedOnceAndIntact() throws {
    try withTemporaryDirectory { usage in
      try withTemporaryDirectory { root in
        var configured = SnapshotSandbox(root: root)
        configured.environment[ReferenceUsageLog.environmentKey] = usage.path
        let sandbox = configured
        DispatchQueue.concurrentPerform(iterations: 40) { index in
          _ = sandbox.verify("a", as: .lines, named: "a\(index)", record: .missing)
          _ = sandbox.verify("a", as: .lines, named: "a\(index)", record: .missing)
          _ = sandbox.verify("b", as: .lines, named: "b\(index)", record: .never)
        }

        let (paths, processes) = try ReferenceUsageLog.load(folder: usage)
        let expected = Set(
          (0..<40).flatMap { index in
            ["a\(index)", "b\(index)"].map { sandbox.reference("sandbox.\($0).txt").path }
          }
        )
        #expect(paths == expected)
        let lines = try fileNames(in: usage).filter { $0.hasPrefix("references-") }.flatMap {
          try String(contentsOf: usage.appendingPathComponent($0), encoding: .utf8)
            .split(separator: "\n")
        }
        #expect(lines.count == expected.count, "each reference is logged once")
        #expect(processes.count == 1)
        #expect(processes.first?.arguments == CommandLine.arguments)
      }
    }
  }

  @Test func disabledWithoutTheEnvironmentVariable() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("a", as: .lines, named: "a", record: .missing)
      #expect(sandbox.environment[ReferenceUsageLog.environmentKey] == nil)
      #expect(fileNames(in: root) == ["__Snapshots__"])
    }
  }
}
