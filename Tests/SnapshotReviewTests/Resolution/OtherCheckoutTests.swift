import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// Failures recorded in one checkout on this machine (a second clone, a worktree, a bind mount)
/// are another package's to the tool, which cannot tell the two apart: left out, unless
/// `--all-packages` asks for them. Then they are accepted into the checkout the tool runs in:
/// the recorded reference exists, but outside that package, so it is moved into it as a CI
/// runner's would be, never written back into the other checkout and never refused.
@Suite struct OtherCheckoutTests {
  /// A copy of the fixture's package beside it, as a second clone would be.
  func secondCheckout(of fixture: ReviewFixture) throws -> URL {
    let copy = fixture.root.deletingLastPathComponent().appendingPathComponent("SecondClone")
    try FileManager.default.copyItem(at: fixture.root, to: copy)
    return copy
  }

  func session(_ fixture: ReviewFixture, packageRoot: URL, allPackages: Bool = true) -> (
    ReviewSession, ScriptedConsole
  ) {
    let console = ScriptedConsole()
    var session = ReviewSession(
      artifactsRoot: fixture.artifacts,
      hints: CommandHints(packageRoot: packageRoot),
      console: console
    )
    session.includesOtherPackages = allPackages
    return (session, console)
  }

  @Test func withoutAllPackagesTheOtherCheckoutsFailuresAreLeftOut() throws {
    try ReviewFixture.with { fixture in
      let clone = try secondCheckout(of: fixture)
      let (session, console) = session(fixture, packageRoot: clone, allPackages: false)
      // Nothing of this checkout is pending: nothing is rejected, and the note says why.
      #expect(session.resolve(.reject, filters: ["testGreeting"]) == .success)
      #expect(console.output.hasPrefix("No pending snapshot failures in "), "\(console.output)")
      #expect(console.errors.contains("left out 4 pending failures"))
      #expect(PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: fixture.root)
        .failures.count == 4)
    }
  }

  @Test func acceptWritesIntoThisCheckoutNotTheOneThatRecorded() throws {
    try ReviewFixture.with { fixture in
      let clone = try secondCheckout(of: fixture)
      let recordedIn = fixture.reference("testGreeting.1.txt")
      let before = try Data(contentsOf: recordedIn)
      let (session, console) = session(fixture, packageRoot: clone)

      let status = session.resolve(.accept, filters: ["testGreeting"])

      #expect(status == .success, "\(console.output)\(console.errors)")
      #expect(!console.errors.contains("outside the package"), "\(console.errors)")
      let local = clone.appendingPathComponent(
        "Tests/AppTests/__Snapshots__/GreetingTests/testGreeting.1.txt")
      #expect(try String(contentsOf: local, encoding: .utf8) == "Hello\nthere\n")
      #expect(try Data(contentsOf: recordedIn) == before, "the other checkout was written")
    }
  }

  @Test func reviewAndRejectSeeTheReferenceInThisCheckout() throws {
    try ReviewFixture.with { fixture in
      let clone = try secondCheckout(of: fixture)
      let pending = PendingFailures.load(
        artifactsRoot: fixture.artifacts, packageRoot: clone, includingOtherPackages: true)
      let greeting = try #require(pending.failures.first { $0.record.testName == "testGreeting()" })
      let reference = try #require(greeting.referenceURL)
      #expect(reference.path.hasPrefix(clone.path + "/"), "\(reference.path)")

      let (session, console) = session(fixture, packageRoot: clone)
      #expect(session.resolve(.reject, filters: ["testGreeting"]) == .success, "\(console.errors)")
    }
  }
}
