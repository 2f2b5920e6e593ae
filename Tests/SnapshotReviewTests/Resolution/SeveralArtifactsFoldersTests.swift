import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import SnapshotReview

/// `--artifacts A --artifacts B`: the failures of several runs (the shards of a CI job), merged.
@Suite struct SeveralArtifactsFoldersTests {
  /// A second artifacts folder with one failure of its own: a missing reference.
  func secondShard(of fixture: ReviewFixture) -> URL {
    let shard = fixture.artifacts.deletingLastPathComponent().appendingPathComponent("shard-2")
    RunEnvironment.withOverride([.artifacts: shard.path]) {
      _ = verifySnapshot(
        of: "from the second shard\n",
        as: .lines,
        record: .never,
        snapshotDirectory: fixture.snapshots.path,
        testName: "testShard()"
      )
    }
    return shard
  }

  /// A session on the fixture's artifacts folder, then the shard's.
  func session(_ fixture: ReviewFixture, _ shard: URL) -> (ReviewSession, ScriptedConsole) {
    let console = ScriptedConsole()
    let session = ReviewSession(
      artifactsRoots: [fixture.artifacts, shard],
      hints: CommandHints(packageRoot: fixture.root),
      console: console
    )
    return (session, console)
  }

  @Test func reviewListsTheFailuresOfEveryFolder() throws {
    try ReviewFixture.with { fixture in
      let shard = secondShard(of: fixture)
      let (session, console) = self.session(fixture, shard)
      #expect(session.review(filters: [], interactive: false) == .pending)
      #expect(
        console.output.hasPrefix(
          "5 pending snapshot failures in \(fixture.artifacts.path), \(shard.path):"
        )
      )
      #expect(session.resolve(.accept, filters: ["testShard"]) == .success)
      #expect(
        contents(of: fixture.reference("testShard.1.txt")) == Data("from the second shard\n".utf8)
      )
      let remaining = PendingFailures.load(
        artifactsRoots: [fixture.artifacts, shard],
        packageRoot: fixture.root
      )
      #expect(remaining.failures.count == 4)
    }
  }

  @Test func theJSONDocumentNamesEveryFolder() throws {
    try ReviewFixture.with { fixture in
      let shard = secondShard(of: fixture)
      let (session, console) = self.session(fixture, shard)
      #expect(session.review(filters: [], format: .json) == .pending)
      let document = try JSONValue.parse(console.output)
      let schema = try reviewSchema()
      #expect(schemaViolations(of: document, against: schema).isEmpty)
      #expect(
        document["artifacts"]
          == .array([
            .string(fixture.artifacts.standardizedFileURL.path),
            .string(shard.standardizedFileURL.path),
          ])
      )
      #expect(document["failures"]?.array?.count == 5)
    }
  }

  @Test func theExecutableTakesTheOptionRepeatedAndRepeatsItInHints() throws {
    try ReviewFixture.with { fixture in
      let shard = secondShard(of: fixture)
      let result = try ExecutableTests().run(
        ["review", "--artifacts", fixture.artifacts.path, "--artifacts", shard.path],
        in: fixture.root
      )
      #expect(result.status == ToolExitCode.pending.rawValue)
      #expect(result.output.hasPrefix("5 pending snapshot failures in "))
      #expect(
        result.output.contains(
          "accept --artifacts \(fixture.artifacts.path) --artifacts \(shard.path) Tests/"
        )
      )
    }
  }
}
