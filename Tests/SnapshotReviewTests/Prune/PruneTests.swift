import Foundation
import Testing

@testable import SnapshotReview

@Suite struct PruneTests {
  /// Arguments as `swift test` (no filter) gives its two test processes.
  static let fullRun = [
    ["/pkg/.build/debug/AppPackageTests.xctest"],
    ["/pkg/.build/debug/AppPackageTests.xctest", "--testing-library", "swift-testing"],
  ]

  func prune(_ fixture: ReviewFixture, delete: Bool) -> (ToolExitCode, ScriptedConsole) {
    let console = ScriptedConsole()
    let session = ReviewSession(
      artifactsRoot: fixture.artifacts,
      hints: CommandHints(packageRoot: fixture.root),
      console: console
    )
    return (session.prune(usageFolders: [fixture.usage], delete: delete), console)
  }

  @Test func listsOnlyUnusedFilesUnderSnapshotsFolders() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      let before = fixture.packageFiles()
      let (status, console) = prune(fixture, delete: false)
      #expect(status == .pending)
      #expect(
        console.output == """
          2 unreferenced snapshot files (of 6 under __Snapshots__ folders):
            Tests/AppTests/__Snapshots__/GreetingTests/testRenamed.1.txt
            Tests/AppTests/__Snapshots__/OldTests/testDeleted.1.png

          Delete them with: swift run snapshot-testing prune --usage \(fixture.usage.path) --delete

          """
      )
      #expect(console.errors.isEmpty)
      #expect(fixture.packageFiles() == before)
    }
  }

  @Test func deleteRemovesThoseFilesAndNothingElse() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      var expected = fixture.packageFiles()
      expected["Tests/AppTests/__Snapshots__/GreetingTests/testRenamed.1.txt"] = nil
      expected["Tests/AppTests/__Snapshots__/OldTests/testDeleted.1.png"] = nil
      let (status, console) = prune(fixture, delete: true)
      #expect(status == .success)
      #expect(console.output.hasSuffix("Deleted 2 files.\n"))
      #expect(fixture.packageFiles() == expected)
      // The folder the deleted test's references lived in is gone; the others stay.
      let oldTests = fixture.root.appendingPathComponent("Tests/AppTests/__Snapshots__/OldTests")
      #expect(!FileManager.default.fileExists(atPath: oldTests.path))
      #expect(FileManager.default.fileExists(atPath: fixture.snapshots.path))

      let (again, secondConsole) = prune(fixture, delete: true)
      #expect(again == .success)
      #expect(
        secondConsole.output == "All 4 reference files under __Snapshots__ folders are used.\n"
      )
    }
  }

  @Test func refusesWithoutALog() throws {
    try ReviewFixture.with { fixture in
      try FileManager.default.removeItem(at: fixture.usage)
      let (status, console) = prune(fixture, delete: true)
      #expect(status == .refused)
      #expect(
        console.errors.hasPrefix(
          "Refusing to prune: the usage folder \"\(fixture.usage.path)\" does not exist."
        )
      )

      try FileManager.default.createDirectory(at: fixture.usage, withIntermediateDirectories: true)
      let (emptyStatus, emptyConsole) = prune(fixture, delete: true)
      #expect(emptyStatus == .refused)
      #expect(
        emptyConsole.errors.hasPrefix(
          """
          Refusing to prune: "\(fixture.usage.path)" holds no usage log, so every reference would \
          look unused.
          """
        )
      )
      #expect(
        FileManager.default.fileExists(atPath: fixture.reference(ReviewFixture.staleText).path)
      )
    }
  }

  /// `--usage FILE` names a file the user asked to read: the advice never suggests deleting it.
  @Test func aUsageFileIsNeverSuggestedForDeletion() throws {
    try ReviewFixture.with { fixture in
      try FileManager.default.removeItem(at: fixture.usage)
      try Data("my notes\n".utf8).write(to: fixture.usage)
      let (status, console) = prune(fixture, delete: true)
      #expect(status == .refused)
      #expect(console.errors.contains("\"\(fixture.usage.path)\" is a file, not a folder"))
      #expect(console.errors.contains("SNAPSHOT_TESTING_USED_REFERENCES=NEW_FOLDER swift test"))
      #expect(!console.errors.contains("rm "), "\(console.errors)")
      #expect(contents(of: fixture.usage) == Data("my notes\n".utf8))
    }
  }

  @Test func refusesALogFromAnotherCheckout() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      let elsewhere = fixture.root.deletingLastPathComponent().appendingPathComponent("Other")
      try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
      let console = ScriptedConsole()
      let session = ReviewSession(
        artifactsRoot: fixture.artifacts,
        hints: CommandHints(packageRoot: elsewhere),
        console: console
      )
      #expect(session.prune(usageFolders: [fixture.usage], delete: true) == .refused)
      #expect(
        console.errors.contains(
          """
          none of the 5 references in the usage log lies beneath "\(standardizedPath(elsewhere.path))"
          """
        )
      )
    }
  }

  @Test func listsAndDeletesWhatKilledRecordingsLeftButNotALiveWrite() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      let stray = fixture.snapshots.appendingPathComponent(
        ".testGreeting.1.txt.999999999.0123456789abcdef.tmp"
      )
      let legacy = fixture.snapshots.appendingPathComponent(
        ".testGreeting.1.txt.3F2504E0-4F89-11D3-9A0C-0305E82C3301.tmp"
      )
      let live = fixture.snapshots.appendingPathComponent(
        ".testGreeting.1.txt.1.0123456789abcdef.tmp"
      )
      for url in [stray, legacy, live] { try fixture.write(Data("partial".utf8), to: url) }

      let (listed, console) = prune(fixture, delete: false)
      #expect(listed == .pending)
      #expect(
        console.output.contains(
          """
          2 temporary files left by interrupted recordings:
            Tests/AppTests/__Snapshots__/GreetingTests/\(legacy.lastPathComponent)
            Tests/AppTests/__Snapshots__/GreetingTests/\(stray.lastPathComponent)

          """
        )
      )

      let (deleted, _) = prune(fixture, delete: true)
      #expect(deleted == .success)
      #expect(!FileManager.default.fileExists(atPath: stray.path))
      #expect(!FileManager.default.fileExists(atPath: legacy.path))
      #expect(FileManager.default.fileExists(atPath: live.path))
    }
  }
}
