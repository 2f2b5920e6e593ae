import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import SnapshotReview

/// `Tests/A/Shared.swift` and `Tests/B/Shared.swift` with a test of the same name once wrote
/// their failures to one `<artifacts>/Shared/` folder: accepting wrote B's snapshot into A's
/// reference and failed on B's.
@Suite struct SameTestFileNameTests {
  @Test func eachTargetsFailureIsAcceptedIntoItsOwnReference() throws {
    try ReviewFixture.with { fixture in
      let targets = ["A", "B"]
      func folder(_ target: String) -> URL {
        fixture.root.appendingPathComponent("Tests/\(target)/__Snapshots__/Shared")
      }
      for target in targets {
        try fixture.write(Data("\(target) old\n".utf8), to: folder(target).appendingPathComponent("testPrice.1.txt"))
        RunEnvironment.withOverride(fixture.environment) {
          _ = verifySnapshot(
            of: "\(target) new\n",
            as: .lines,
            record: .never,
            snapshotDirectory: folder(target).path,
            testName: "testPrice()"
          )
        }
      }
      let pending = PendingFailures.load(artifactsRoots: [fixture.artifacts], packageRoot: fixture.root)
        .failures.filter { $0.record.testName == "testPrice()" }
      #expect(Set(pending.map(\.failedSnapshotURL.path)).count == 2)

      let console = ScriptedConsole()
      let session = ReviewSession(
        artifactsRoot: fixture.artifacts,
        hints: CommandHints(packageRoot: fixture.root),
        console: console
      )
      #expect(session.resolve(.accept, filters: ["testPrice"]) == .success, "\(console.errors)")

      for target in targets {
        #expect(
          contents(of: folder(target).appendingPathComponent("testPrice.1.txt"))
            == Data("\(target) new\n".utf8)
        )
      }
    }
  }
}
