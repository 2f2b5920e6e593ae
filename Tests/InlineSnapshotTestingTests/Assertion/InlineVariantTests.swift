import Foundation
import RunRecord
import Testing

@_spi(Internals) import SnapshotTesting
@testable import InlineSnapshotTesting

/// Inline snapshots live in the test's source, one per call: a reference variant in effect is
/// refused, and nothing is written into the source.
@Suite struct InlineVariantTests {
  static let fresh = """
    @Test func greeting() {
      assertInlineSnapshot(of: name, as: .lines)
    }

    """

  func assertGreeting(matches expected: (() -> String)? = nil) {
    assertInlineSnapshot(
      of: "Hello",
      as: .lines,
      matches: expected,
      file: FixtureRun.fileName,
      line: 2,
      column: 23
    )
  }

  @Test func aScopedVariantIsRefused() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      run.run { withSnapshotTesting(variant: .custom("fr_FR")) { assertGreeting() } }
    }
    #expect(
      issues.messages == [
        """
        Inline snapshots cannot have reference variants: withSnapshotTesting(variant:) or the \
        .snapshots(variant:) trait sets the variant "fr_FR" here, but an inline snapshot is \
        stored in the test's source, which is the same for every variant. Move this assertion \
        out of the variant's scope, or use assertSnapshot, which stores a reference file per \
        variant.
        """
      ]
    )
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == Self.fresh)
  }

  @Test func aMatchingSnapshotIsRefusedToo() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      run.run {
        withSnapshotTesting(variant: .operatingSystem) { assertGreeting(matches: { "Hello" }) }
      }
    }
    let os = SnapshotTestingConfiguration.Variant.operatingSystem.name
    #expect(issues.messages.first?.contains("sets the variant \"\(os)\" here") == true)
  }

  @Test func theEnvironmentVariableIsRefusedByName() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      run.run(environment: [.variant: "ci"]) { assertGreeting() }
    }
    #expect(
      issues.messages.first?.hasPrefix(
        #"Inline snapshots cannot have reference variants: SNAPSHOT_TESTING_VARIANT sets the variant "ci" here"#
      ) == true,
      "\(issues.messages)"
    )
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == Self.fresh)
  }

  @Test func withoutAVariantNothingChanges() throws {
    let run = try FixtureRun(source: Self.fresh)
    run.run { assertGreeting(matches: { "Hello" }) }
    #expect(run.writePending().isEmpty)
  }
}
