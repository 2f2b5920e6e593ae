import Foundation
import Testing

@testable import SnapshotTesting

/// Every bad reference fails the one assertion with a message naming the file and the cause; none
/// crashes, and none loses what was on disk.
@Suite struct BadReferenceTests {
  @Test func referenceThatIsAFolder() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let folder = sandbox.reference("sandbox.1.txt")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("keep".utf8).write(to: folder.appendingPathComponent("inside.txt"))

      for mode in [SnapshotTestingConfiguration.Record.missing, .failed, .never] {
        let message = sandbox.verify("x", as: .lines, named: "1", record: mode)
        #expect(
          message == """
            The reference "\(folder.path)" is a folder, not a file. Move or delete the folder so \
            the snapshot can be stored there.
            """
        )
      }
      let recordAll = sandbox.verify("x", as: .lines, named: "1", record: .all)
      #expect(recordAll?.hasPrefix(#"The reference "\#(folder.path)" is a folder"#) == true)
      #expect(contents(of: folder.appendingPathComponent("inside.txt")) == "keep")
    }
  }

  @Test func unreadableReference() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try FileManager.default.createDirectory(
        at: sandbox.snapshots,
        withIntermediateDirectories: true
      )
      let loop = sandbox.reference("sandbox.1.txt")
      // A link to itself cannot be opened, even by root (who can read files without permission).
      try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)

      let message = sandbox.verify("x", as: .lines, record: .missing)
      #expect(
        message
          == #"The reference "\#(loop.path)" could not be read: Too many levels of symbolic links."#
      )
      let destination = try FileManager.default.destinationOfSymbolicLink(atPath: loop.path)
      #expect(destination == loop.path)
    }
  }

  @Test func referenceThatIsAPipe() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try FileManager.default.createDirectory(
        at: sandbox.snapshots,
        withIntermediateDirectories: true
      )
      let pipe = sandbox.reference("sandbox.1.txt")
      #expect(mkfifo(pipe.path, 0o644) == 0)
      let message = sandbox.verify("x", as: .lines, record: .missing)
      #expect(
        message == #"The reference "\#(pipe.path)" could not be read: it is not a regular file."#
      )
    }
  }

  @Test func referenceThatIsNotUTF8() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try FileManager.default.createDirectory(
        at: sandbox.snapshots,
        withIntermediateDirectories: true
      )
      let bytes = Data([0x68, 0x69, 0xFF, 0xFE, 0x00, 0x80])
      try bytes.write(to: sandbox.reference("sandbox.1.txt"))
      let message = try #require(sandbox.verify("hi", as: .lines, record: .missing))
      #expect(
        message.hasPrefix(
          #"The reference "\#(sandbox.reference("sandbox.1.txt").path)" is not valid UTF-8 text"#
        )
      )
      #expect(try Data(contentsOf: sandbox.reference("sandbox.1.txt")) == bytes)
    }
  }

  @Test func emptyReferenceSaysSoWhenItDoesNotMatch() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("", to: "sandbox.empty.txt")
      let message = try #require(
        sandbox.verify("text", as: .lines, named: "empty", record: .missing)
      )
      #expect(message.hasPrefix(#"Snapshot "empty" does not match reference."#))
      #expect(
        message.hasSuffix(
          #"The reference "\#(sandbox.reference("sandbox.empty.txt").path)" is empty (0 bytes); it may have been truncated."#
        )
      )
      // An empty snapshot is a legitimate reference.
      #expect(sandbox.verify("", as: .lines, named: "empty", record: .missing) == nil)
    }
  }

  @Test func gitLFSPointerIsNamedAsSuch() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let pointer = """
        version https://git-lfs.github.com/spec/v1
        oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
        size 12345

        """
      try sandbox.write(pointer, to: "sandbox.1.txt")
      let message = try #require(sandbox.verify("x", as: .lines, record: .failed))
      #expect(
        message.hasPrefix(
          #"The reference "\#(sandbox.reference("sandbox.1.txt").path)" is a Git LFS pointer"#
        )
      )
      #expect(message.contains("git lfs pull"))
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == pointer)
    }
  }

  @Test func unwritableSnapshotFolder() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      // A file where the folder should be: no one, not even root, can create the folder.
      let parent = sandbox.snapshots.deletingLastPathComponent()
      try FileManager.default.createDirectory(
        at: parent.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try Data("not a folder".utf8).write(to: parent)

      let message = try #require(sandbox.verify("x", as: .lines, record: .missing))
      #expect(message.hasPrefix(#"Could not write "\#(sandbox.snapshots.path)": "#))
      #expect(contents(of: parent) == "not a folder")
    }
  }

  @Test func namedWithOnlySeparatorsFailsClearly() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let message = sandbox.verify("x", as: .lines, named: "../..", record: .missing)
      #expect(message?.hasPrefix(#"The snapshot name "../.." has no letters or digits"#) == true)
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func namedWithSlashesDotsAndSpacesStaysInTheFolder() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("x", as: .lines, named: "../dark mode/v1.2", record: .missing)
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.dark-mode-v1-2.txt"])
      #expect(fileNames(in: root).sorted() == ["__Snapshots__"])
    }
  }

  @Test func strategyThatNeverCallsBackTimesOut() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let never = Snapshotting<String, String>.lines.asyncPullback { (_: Int) in
        Async { _ in }
      }
      let message = try #require(sandbox.verify(1, as: never, timeout: 0.2))
      #expect(
        message.hasPrefix(
          """
          Exceeded timeout of 0.2 seconds waiting for the snapshot for \
          "\(sandbox.reference("sandbox.1.txt").path)": the strategy's asynchronous snapshot never \
          called back.
          """
        )
      )
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func throwingValueFailsTheAssertion() throws {
    struct Boom: Error {}
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let message = try #require(
        sandbox.verify(try { () throws -> String in throw Boom() }(), as: .lines)
      )
      #expect(message.hasSuffix("the expression threw Boom()."))
    }
  }
}
