import Foundation
import RunRecord
import Testing

/// The commit a usage log records, read from `.git` without running git.
@Suite struct GitRevisionTests {
  static let commit = "0123456789abcdef0123456789abcdef01234567"
  static let other = "fedcba9876543210fedcba9876543210fedcba98"

  func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try Data(text.utf8).write(to: url)
  }

  @Test func aDetachedHeadFromAFolderBelowTheCheckout() throws {
    try withTemporaryFolder { folder in
      try write("\(Self.commit)\n", to: folder.appendingPathComponent(".git/HEAD"))
      let below = folder.appendingPathComponent("Tests/AppTests")
      try FileManager.default.createDirectory(at: below, withIntermediateDirectories: true)
      #expect(GitRevision.current(at: below) == Self.commit)
    }
  }

  @Test func aBranchThroughALooseRefThenAPackedOne() throws {
    try withTemporaryFolder { folder in
      let git = folder.appendingPathComponent(".git")
      try write("ref: refs/heads/main\n", to: git.appendingPathComponent("HEAD"))
      try write(
        "# pack-refs with: peeled fully-peeled sorted\n\(Self.other) refs/heads/other\n\(Self.commit) refs/heads/main\n",
        to: git.appendingPathComponent("packed-refs")
      )
      #expect(GitRevision.current(at: folder) == Self.commit)
      // A loose ref is newer than the packed one.
      try write("\(Self.other)\n", to: git.appendingPathComponent("refs/heads/main"))
      #expect(GitRevision.current(at: folder) == Self.other)
    }
  }

  @Test func aWorktreeReadsItsHeadAndTheSharedRefs() throws {
    try withTemporaryFolder { folder in
      let main = folder.appendingPathComponent("main/.git")
      try write("\(Self.other) refs/heads/feature\n", to: main.appendingPathComponent("packed-refs"))
      let worktreeGit = main.appendingPathComponent("worktrees/feature")
      try write("ref: refs/heads/feature\n", to: worktreeGit.appendingPathComponent("HEAD"))
      try write("../..\n", to: worktreeGit.appendingPathComponent("commondir"))
      let worktree = folder.appendingPathComponent("feature")
      try write("gitdir: \(worktreeGit.path)\n", to: worktree.appendingPathComponent(".git"))
      #expect(GitRevision.current(at: worktree) == Self.other)
    }
  }

  @Test func noAnswerOutsideACheckoutOrFromAnUnreadableHead() throws {
    try withTemporaryFolder { folder in
      #expect(GitRevision.current(at: folder) == nil)
      try write("not a commit\n", to: folder.appendingPathComponent(".git/HEAD"))
      #expect(GitRevision.current(at: folder) == nil)
      try write("ref: refs/heads/missing\n", to: folder.appendingPathComponent(".git/HEAD"))
      #expect(GitRevision.current(at: folder) == nil)
      try write("gitdir\n", to: folder.appendingPathComponent("sub/.git"))
      #expect(GitRevision.current(at: folder.appendingPathComponent("sub")) == nil)
    }
  }

  /// This repository, against git itself (CI runs in a clone).
  @Test func thisCheckoutAsGitSeesIt() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let git = Process()
    git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    git.arguments = ["git", "-C", repository.path, "rev-parse", "HEAD"]
    let output = Pipe()
    git.standardOutput = output
    git.standardError = FileHandle.nullDevice
    try git.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    git.waitUntilExit()
    try #require(git.terminationStatus == 0, "not a git checkout")
    let expected = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(GitRevision.current(at: repository) == expected)
  }
}
