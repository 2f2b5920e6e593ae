import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// An artifacts folder is untrusted input: it often comes from a CI run of someone else's pull
/// request. These records are crafted as an attacker would write them; for each, the tool must
/// refuse, name why, and change no file outside the places it may touch.
@Suite struct CraftedRecordTests {
  /// Rewrites the record of `testGreeting()` with `change`, keeping its file.
  func craft(_ fixture: ReviewFixture, _ change: (inout FailureRecord) -> Void) throws {
    let artifacts = ArtifactsFolder(root: fixture.artifacts)
    let (stored, _) = FailureRecordStore.loadStored(from: artifacts)
    let (url, original) = try #require(stored.first { $0.record.testName == "testGreeting()" })
    var record = original
    change(&record)
    try JSONEncoder().encode(record).write(to: url)
  }

  func run(_ decision: Decision, _ fixture: ReviewFixture) -> (ToolExitCode, String) {
    let console = ScriptedConsole()
    let session = ReviewSession(
      artifactsRoot: fixture.artifacts,
      hints: CommandHints(packageRoot: fixture.root),
      console: console
    )
    return (session.resolve(decision, filters: ["testGreeting"]), console.output + console.errors)
  }

  /// A file outside the package and the artifacts folder, as a system file would be.
  func outsideFile(_ fixture: ReviewFixture) throws -> URL {
    let url = fixture.root.deletingLastPathComponent().appendingPathComponent("system-file")
    try Data("precious\n".utf8).write(to: url)
    return url
  }

  @Test func aReferencePathThatClimbsOutOfSnapshotsIsRefused() throws {
    try ReviewFixture.with { fixture in
      try craft(fixture) {
        $0.referencePath = fixture.snapshots.path + "/../../../../Package.swift"
      }
      let before = fixture.packageFiles()

      let (status, output) = run(.accept, fixture)

      #expect(status == .failure)
      #expect(output.contains("is not in a __Snapshots__ folder"), "\(output)")
      #expect(!output.contains("Accepted"))
      #expect(fixture.packageFiles() == before)
    }
  }

  @Test func aReferenceInThePackageButNotUnderSnapshotsIsRefused() throws {
    try ReviewFixture.with { fixture in
      try craft(fixture) {
        $0.referencePath = fixture.root.appendingPathComponent("Tests/AppTests/testGreeting.1.txt").path
      }
      let before = fixture.packageFiles()

      let (status, output) = run(.accept, fixture)

      #expect(status == .failure)
      #expect(output.contains("is not in a __Snapshots__ folder"), "\(output)")
      #expect(fixture.packageFiles() == before)
    }
  }

  @Test(arguments: [
    "run.sh",  // no name the engine writes
    "testOther.1.txt",  // another test's reference
    "testGreeting.1.png",  // another extension than the record's
    "testGreeting.named.txt",  // a name, where the record has none
  ])
  func aReferenceNameTheEngineCouldNotHaveWrittenIsRefused(_ name: String) throws {
    try ReviewFixture.with { fixture in
      try craft(fixture) { $0.referencePath = fixture.reference(name).path }
      let before = fixture.packageFiles()

      let (status, output) = run(.accept, fixture)

      #expect(status == .failure)
      #expect(output.contains("\"\(name)\" is not a name this package gives"), "\(output)")
      #expect(fixture.packageFiles() == before)
    }
  }

  @Test func aSnapshotsFolderLinkedOutOfThePackageIsRefused() throws {
    try ReviewFixture.with { fixture in
      let elsewhere = fixture.root.deletingLastPathComponent().appendingPathComponent("elsewhere")
      try FileManager.default.createDirectory(
        at: elsewhere.appendingPathComponent("__Snapshots__/GreetingTests"),
        withIntermediateDirectories: true
      )
      let link = fixture.root.appendingPathComponent("Tests/Linked")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
      try craft(fixture) {
        $0.referencePath = link.appendingPathComponent("__Snapshots__/GreetingTests/testGreeting.1.txt").path
      }

      let (status, output) = run(.accept, fixture)

      #expect(status == .failure)
      #expect(output.contains("is outside the package"), "\(output)")
      #expect(
        !FileManager.default.fileExists(
          atPath: elsewhere.appendingPathComponent("__Snapshots__/GreetingTests/testGreeting.1.txt").path
        )
      )
    }
  }

  /// A reference that is itself a link to a file outside the package (an artifacts archive
  /// unpacked inside the package can carry one): writing would follow it.
  @Test func aReferenceLinkedOutOfThePackageIsRefused() throws {
    try ReviewFixture.with { fixture in
      let system = try outsideFile(fixture)
      let link = fixture.reference("testGreeting.7.txt")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: system)
      try craft(fixture) { $0.referencePath = link.path }

      let (status, output) = run(.accept, fixture)

      #expect(status == .failure)
      #expect(output.contains("is outside the package"), "\(output)")
      #expect(contents(of: system) == Data("precious\n".utf8))
    }
  }

  @Test(arguments: [Decision.accept, .reject])
  func aNewSnapshotOutsideTheArtifactsFolderIsNeitherReadNorRemoved(_ decision: Decision) throws {
    try ReviewFixture.with { fixture in
      let system = try outsideFile(fixture)
      try craft(fixture) {
        $0.files = [FailureRecord.File(role: .newSnapshot, path: system.path)] + $0.files.dropFirst()
      }
      let before = fixture.packageFiles()

      let (status, output) = run(decision, fixture)

      #expect(status == .failure)
      #expect(output.contains("outside the artifacts folder"), "\(output)")
      #expect(output.contains(system.path), "\(output)")
      #expect(contents(of: system) == Data("precious\n".utf8))
      #expect(fixture.packageFiles() == before)
    }
  }

  @Test(arguments: [Decision.accept, .reject])
  func aLinkInsideTheArtifactsFolderToOutsideIsNotFollowed(_ decision: Decision) throws {
    try ReviewFixture.with { fixture in
      let system = try outsideFile(fixture)
      let link = fixture.artifacts.appendingPathComponent("innocent.txt")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: system)
      try craft(fixture) {
        $0.files.append(FailureRecord.File(role: .attachment, path: link.path))
      }

      let (status, output) = run(decision, fixture)

      #expect(status == .failure)
      #expect(output.contains("outside the artifacts folder"), "\(output)")
      #expect(contents(of: system) == Data("precious\n".utf8))
      #expect(FileManager.default.fileExists(atPath: link.path))
    }
  }

  @Test func aRecordFarLargerThanAnyTheEngineWritesIsSkippedUnread() throws {
    try ReviewFixture.with { fixture in
      let folder = ArtifactsFolder(root: fixture.artifacts).failureRecordsFolder
      let huge = folder.appendingPathComponent("0000000000000000.json")
      // Sparse: 3 GB on paper, nothing on disk.
      #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
      #expect(truncate(huge.path, 3 << 30) == 0)

      let pending = PendingFailures.load(artifactsRoots: [fixture.artifacts], packageRoot: fixture.root)

      #expect(pending.failures.count == 4)
      #expect(
        pending.problems == [
          "\(huge.path): \(3 << 30) bytes, more than a failure record may hold "
            + "(\(FailureRecordStore.maximumRecordSize) bytes); skipped"
        ]
      )
    }
  }

  @Test func aRecordThatIsAPipeIsSkippedWithoutBlocking() throws {
    try ReviewFixture.with { fixture in
      let folder = ArtifactsFolder(root: fixture.artifacts).failureRecordsFolder
      let pipe = folder.appendingPathComponent("1111111111111111.json")
      #expect(mkfifo(pipe.path, 0o600) == 0)

      let pending = PendingFailures.load(artifactsRoots: [fixture.artifacts], packageRoot: fixture.root)

      #expect(pending.failures.count == 4)
      #expect(pending.problems == ["\(pipe.path): not a regular file; skipped"])
    }
  }

  /// A record that claims another record's reference: rejecting removes the record files that
  /// were read, never a file its reference's hash would name instead.
  @Test func rejectRemovesTheRecordsThatWereRead() throws {
    try ReviewFixture.with { fixture in
      let artifacts = ArtifactsFolder(root: fixture.artifacts)
      let (stored, _) = FailureRecordStore.loadStored(from: artifacts)
      let greeting = try #require(stored.first { $0.record.testName == "testGreeting()" })
      let copy = artifacts.failureRecordsFolder.appendingPathComponent("ffffffffffffffff.json")
      try FileManager.default.copyItem(at: greeting.url, to: copy)

      let (status, output) = run(.reject, fixture)

      #expect(status == .success, "\(output)")
      #expect(!FileManager.default.fileExists(atPath: copy.path))
      #expect(!FileManager.default.fileExists(atPath: greeting.url.path))
    }
  }
}
