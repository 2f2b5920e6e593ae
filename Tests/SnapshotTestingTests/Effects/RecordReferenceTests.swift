import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

/// Recording writes through what the user has on disk instead of replacing it.
@Suite struct RecordReferenceTests {
  @Test func recordingOverASymlinkedReferenceUpdatesItsTargetAndKeepsTheLink() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let shared = root.appendingPathComponent("shared.txt")
      try Data("old\n".utf8).write(to: shared)
      try FileManager.default.createDirectory(
        at: sandbox.snapshots,
        withIntermediateDirectories: true
      )
      let link = sandbox.reference("sandbox.shared.txt")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: shared)

      let message = try #require(
        sandbox.verify("new\n", as: .lines, named: "shared", record: .all)
      )

      #expect(message.hasPrefix(#"Record mode is "all""#))
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == shared.path)
      #expect(contents(of: shared) == "new\n")
      #expect(sandbox.verify("new\n", as: .lines, named: "shared", record: .never) == nil)
    }
  }

  @Test func aReadOnlyReferenceIsNotReplacedAndTheFailureSaysWhy() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old\n", to: "sandbox.1.txt")
      let reference = sandbox.reference("sandbox.1.txt")
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o444],
        ofItemAtPath: reference.path
      )

      let message = sandbox.verify("new\n", as: .lines, record: .all)

      #expect(message == SnapshotFileError.readOnly(reference).description)
      #expect(contents(of: reference) == "old\n")
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.1.txt"])
    }
  }

  @Test func aFailedRerecordingIsReportedWithTheMismatch() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old\n", to: "sandbox.1.txt")
      let reference = sandbox.reference("sandbox.1.txt")
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o444],
        ofItemAtPath: reference.path
      )

      let message = try #require(sandbox.verify("new\n", as: .lines, record: .failed))

      #expect(message.hasPrefix("Snapshot does not match reference.\n"))
      #expect(!message.contains("automatically recorded"))
      #expect(message.contains(SnapshotFileError.readOnly(reference).description))
      #expect(contents(of: reference) == "old\n")
    }
  }
}
