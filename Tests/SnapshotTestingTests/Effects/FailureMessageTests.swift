import Foundation
import Testing

@testable import SnapshotTesting

@Suite struct FailureMessageTests {
  @Test func layoutIsHeadlineDiffToolThenDifference() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("a\nb\n", to: "sandbox.1.txt")
      let message = try #require(
        withSnapshotTesting(diffTool: .init { "compare \($0) with \($1)" }) {
          sandbox.verify("a\nc\n", as: .lines, record: .never)
        }
      )
      let failed = sandbox.artifact("sandbox.1.txt")
      let expectedDifference = try #require(Diffing<String>.lines.diffV2("a\nb\n", "a\nc\n")).0
      #expect(
        message == """
          Snapshot does not match reference.

          compare \(sandbox.reference("sandbox.1.txt").path) with \(failed.path)

          \(expectedDifference.trimmingCharacters(in: .whitespacesAndNewlines))
          """
      )
    }
  }

  @Test func namedSnapshotsAreNamedInTheHeadline() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("old", to: "sandbox.dark.txt")
      let message = sandbox.verify("new", as: .lines, named: "dark", record: .never)
      #expect(message?.hasPrefix(#"Snapshot "dark" does not match reference."#) == true)
    }
  }

  @Test func failedSnapshotAndAttachmentsAreWrittenToTheArtifactsFolder() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let withAttachments = Snapshotting<String, String>(
        pathExtension: "txt",
        diffing: .diff(
          toData: { Data($0.utf8) },
          fromData: { String(decoding: $0, as: UTF8.self) },
          diffV2: { old, new in
            old == new ? nil : ("different", [.data(Data("explained".utf8), name: "why.txt")])
          }
        )
      )
      try sandbox.write("old", to: "sandbox.1.txt")
      #expect(sandbox.verify("new", as: withAttachments, record: .never) != nil)
      #expect(contents(of: sandbox.artifact("sandbox.1.txt")) == "new")
      #expect(contents(of: sandbox.artifact("sandbox.1.why.txt")) == "explained")
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == "old")
    }
  }

  @Test func matchingSnapshotWritesNothing() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("same", to: "sandbox.1.txt")
      #expect(sandbox.verify("same", as: .lines, record: .never) == nil)
      #expect(!FileManager.default.fileExists(atPath: sandbox.artifacts.path))
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.1.txt"])
    }
  }

  @Test func writesLeaveNoTemporaryFilesBehind() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      for index in 1...5 {
        _ = sandbox.verify("value \(index)", as: .lines, record: .all)
      }
      #expect(fileNames(in: sandbox.snapshots) == (1...5).map { "sandbox.\($0).txt" })
    }
  }
}
