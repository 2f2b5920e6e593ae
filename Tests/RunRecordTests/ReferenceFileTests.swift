import Foundation
import Testing

@testable import RunRecord

@Suite struct ReferenceFileTests {
  @Test(arguments: [
    "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n",
    "version https://hawser.github.com/spec/v1\noid sha256:4d7a\nsize 1\n",
  ])
  func aGitLFSPointerIsNamedAsSuch(_ pointer: String) throws {
    try withTemporaryFolder { root in
      let url = root.appendingPathComponent("t.1.png")
      try Data(pointer.utf8).write(to: url)
      #expect(throws: SnapshotFileError.gitLFSPointer(url)) { try ReferenceFile.read(url) }
    }
  }

  @Test func textThatMerelyMentionsGitLFSIsNotAPointer() {
    #expect(!GitLFSPointer.matches(Data("version 2 of https://git-lfs docs\n".utf8)))
    #expect(!GitLFSPointer.matches(Data()))
  }

  @Test func nothingThereIsMissingAndAFileIsRead() throws {
    try withTemporaryFolder { root in
      let url = root.appendingPathComponent("t.1.txt")
      #expect(try ReferenceFile.read(url) == .missing)
      #expect(
        try ReferenceFile.read(url.appendingPathComponent("below-a-missing-file")) == .missing
      )
      try Data("hi".utf8).write(to: url)
      #expect(try ReferenceFile.read(url) == .present(Data("hi".utf8)))
    }
  }

  @Test func aBrokenLinkIsThereButUnreadable() throws {
    try withTemporaryFolder { root in
      let url = root.appendingPathComponent("t.1.txt")
      try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "gone.txt")
      #expect {
        try ReferenceFile.read(url)
      } throws: { error in
        (error as? SnapshotFileError)?.description.hasPrefix(
          #"The reference "\#(url.path)" could not be read: No such file or directory"#
        ) == true
      }
    }
  }
}
