import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import SnapshotReview

/// A failure record can come from another machine (downloaded CI artifacts), so `accept` writes
/// only inside the package, or under `SNAPSHOT_TESTING_REFERENCE_DIR` when it is set.
@Suite struct AcceptOutsidePackageTests {
  /// A failure of a reference in `folder` (a missing one: the new snapshot is the whole text).
  func fail(into folder: URL, _ fixture: ReviewFixture, test: String = "testOutside()") {
    RunEnvironment.withOverride([.artifacts: fixture.artifacts.path]) {
      _ = verifySnapshot(
        of: "written from a failure record\n",
        as: .lines,
        record: .never,
        snapshotDirectory: folder.path,
        testName: test
      )
    }
  }

  /// `accept testOutside`; with `allPackages`, as `--all-packages` runs it.
  func accept(
    _ fixture: ReviewFixture, environment: RunEnvironment = [:], allPackages: Bool = false
  ) -> (ToolExitCode, String) {
    RunEnvironment.withOverride(environment) {
      let console = ScriptedConsole()
      var session = ReviewSession(
        artifactsRoots: [fixture.artifacts],
        hints: CommandHints(packageRoot: fixture.root),
        console: console
      )
      session.includesOtherPackages = allPackages
      return (session.resolve(.accept, filters: ["testOutside"]), console.output + console.errors)
    }
  }

  @Test func aReferenceOutsideThePackageIsNeverWritten() throws {
    try ReviewFixture.with { fixture in
      let outside = fixture.root.deletingLastPathComponent().appendingPathComponent("elsewhere")
      try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
      fail(into: outside, fixture)

      // Neither its reference nor its test file is in the package: another package's failure,
      // not even seen without --all-packages.
      let (unseen, note) = accept(fixture)
      #expect(unseen == .noMatch, "\(note)")
      #expect(note.contains("left out 1 pending failure of other packages"), "\(note)")

      // Shown with --all-packages, its JSON says its reference is not in the package.
      let console = ScriptedConsole()
      var session = ReviewSession(
        artifactsRoots: [fixture.artifacts], hints: CommandHints(packageRoot: fixture.root),
        console: console)
      session.includesOtherPackages = true
      _ = session.review(filters: ["testOutside"], format: .json)
      let failure = try #require(try JSONValue.parse(console.output)["failures"]?.array?.first)
      #expect(failure["test"] == .string("testOutside()"))
      #expect(failure["referenceLocated"] == .bool(false), "\(console.output)")

      let (status, output) = accept(fixture, allPackages: true)

      #expect(status != .success)
      #expect(output.contains("Refusing to accept \"testOutside()\": its reference"), "\(output)")
      #expect(output.contains("is outside the package \"\(fixture.root.path)\""), "\(output)")
      #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("testOutside.1.txt").path))
      // The failure stays pending, to be accepted from the right place.
      let pending = PendingFailures.load(
        artifactsRoots: [fixture.artifacts], packageRoot: fixture.root,
        includingOtherPackages: true)
      #expect(pending.failures.contains { $0.record.testName == "testOutside()" })
    }
  }

  @Test func dotDotCannotLeaveThePackage() throws {
    try ReviewFixture.with { fixture in
      let escaping = fixture.snapshots.appendingPathComponent("../../../../../escaped")
      try FileManager.default.createDirectory(at: escaping, withIntermediateDirectories: true)
      fail(into: escaping, fixture)

      #expect(accept(fixture).0 == .noMatch)
      let (status, output) = accept(fixture, allPackages: true)

      #expect(status != .success)
      #expect(output.contains("is outside the package"), "\(output)")
    }
  }

  @Test func theReferenceFolderTheEnvironmentNamesIsAllowed() throws {
    try ReviewFixture.with { fixture in
      let references = fixture.root.deletingLastPathComponent().appendingPathComponent("references")
      try FileManager.default.createDirectory(at: references, withIntermediateDirectories: true)
      fail(into: references, fixture)

      let (status, output) = accept(fixture, environment: [.referenceDirectory: references.path])

      #expect(status == .success, "\(output)")
      #expect(
        contents(of: references.appendingPathComponent("testOutside.1.txt"))
          == Data("written from a failure record\n".utf8)
      )
    }
  }

  @Test func insideThePackageAcceptWritesAsBefore() throws {
    try ReviewFixture.with { fixture in
      fail(into: fixture.snapshots, fixture)
      let (status, output) = accept(fixture)
      #expect(status == .success, "\(output)")
      #expect(
        contents(of: fixture.snapshots.appendingPathComponent("testOutside.1.txt"))
          == Data("written from a failure record\n".utf8)
      )
    }
  }
}
