import Foundation
import Testing

@testable import RunRecord

@Suite struct AtomicFileTests {
  @Test func createsMissingFoldersAndLeavesNoTemporaryFile() throws {
    try withTemporaryFolder { root in
      let url = root.appendingPathComponent("a/b/ref.txt")
      try AtomicFile.write(Data("one".utf8), to: url)
      #expect(try String(contentsOf: url, encoding: .utf8) == "one")
      #expect(names(in: url.deletingLastPathComponent()) == ["ref.txt"])
    }
  }

  @Test func replacesTheContentAndKeepsThePermissions() throws {
    try withTemporaryFolder { root in
      let url = root.appendingPathComponent("script.sh")
      try Data("old".utf8).write(to: url)
      try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: url.path)
      try AtomicFile.write(Data("new".utf8), to: url)
      #expect(try String(contentsOf: url, encoding: .utf8) == "new")
      #expect(try permissions(of: url) == 0o750)
      #expect(names(in: root) == ["script.sh"])
    }
  }

  @Test func writesThroughASymbolicLinkAndKeepsTheLink() throws {
    try withTemporaryFolder { root in
      let shared = root.appendingPathComponent("shared/ref.txt")
      try FileManager.default.createDirectory(
        at: shared.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try Data("old".utf8).write(to: shared)
      try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: shared.path)
      let link = root.appendingPathComponent("link.txt")
      // Relative, as in a repository: resolved against the link's own folder.
      try FileManager.default.createSymbolicLink(
        atPath: link.path,
        withDestinationPath: "shared/ref.txt"
      )

      try AtomicFile.write(Data("new".utf8), to: link)

      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "shared/ref.txt"
      )
      #expect(try String(contentsOf: shared, encoding: .utf8) == "new")
      #expect(try permissions(of: shared) == 0o640)
      #expect(names(in: shared.deletingLastPathComponent()) == ["ref.txt"])
    }
  }

  @Test func aChainOfLinksIsFollowedToItsEnd() throws {
    try withTemporaryFolder { root in
      let target = root.appendingPathComponent("target.txt")
      try Data("old".utf8).write(to: target)
      let first = root.appendingPathComponent("first")
      let second = root.appendingPathComponent("second")
      try FileManager.default.createSymbolicLink(
        atPath: second.path,
        withDestinationPath: target.path
      )
      try FileManager.default.createSymbolicLink(atPath: first.path, withDestinationPath: "second")
      try AtomicFile.write(Data("new".utf8), to: first)
      #expect(try String(contentsOf: target, encoding: .utf8) == "new")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: first.path) == "second")
    }
  }

  @Test func aLoopingLinkFailsNamingTheFile() throws {
    try withTemporaryFolder { root in
      let loop = root.appendingPathComponent("loop.txt")
      try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop.txt")
      #expect {
        try AtomicFile.write(Data("x".utf8), to: loop)
      } throws: { error in
        (error as? SnapshotFileError)?.description.hasPrefix(#"Could not write "\#(loop.path)""#)
          == true
      }
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: loop.path) == "loop.txt")
    }
  }

  @Test func aReadOnlyFileIsRefusedAndKept() throws {
    try withTemporaryFolder { root in
      let url = root.appendingPathComponent("ref.txt")
      try Data("kept".utf8).write(to: url)
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
      #expect(throws: SnapshotFileError.readOnly(url)) {
        try AtomicFile.write(Data("new".utf8), to: url)
      }
      #expect(try String(contentsOf: url, encoding: .utf8) == "kept")
      #expect(names(in: root) == ["ref.txt"])
    }
  }

  @Test func aFolderIsNeverReplaced() throws {
    try withTemporaryFolder { root in
      let url = root.appendingPathComponent("ref.txt")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      #expect(throws: SnapshotFileError.isFolder(url)) {
        try AtomicFile.write(Data("new".utf8), to: url)
      }
    }
  }

  @Test func anUnwritableFolderFailsNamingTheFileAndTheCause() throws {
    // Root ignores permission bits: a file where the folder should be fails for everyone.
    try withTemporaryFolder { root in
      let blocker = root.appendingPathComponent("blocker")
      try Data().write(to: blocker)
      let url = blocker.appendingPathComponent("ref.txt")
      #expect {
        try AtomicFile.write(Data("x".utf8), to: url)
      } throws: { error in
        let description = (error as? SnapshotFileError)?.description ?? ""
        return description.hasPrefix(#"Could not write "\#(blocker.path)""#)
      }
    }
  }
}
