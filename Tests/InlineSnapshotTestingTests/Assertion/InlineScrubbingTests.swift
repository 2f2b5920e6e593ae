import Foundation
import Testing

@_spi(Internals) import SnapshotTesting
@testable import InlineSnapshotTesting

/// Inline snapshots are scrubbed before they are compared and written into the test.
@Suite struct InlineScrubbingTests {
  static let fresh = """
    @Test func user() {
      assertInlineSnapshot(of: user, as: .lines)
    }

    """

  static func recorded(_ text: String) -> String {
    """
    @Test func user() {
      assertInlineSnapshot(of: user, as: .lines) {
        \"\"\"
        \(text)
        \"\"\"
      }
    }

    """
  }

  static let id = UUID()

  func assertUser(
    as strategy: Snapshotting<String, String>,
    matches expected: (() -> String)? = nil
  ) {
    assertInlineSnapshot(
      of: "id \(Self.id), friend \(UUID()), again \(Self.id)",
      as: strategy,
      matches: expected,
      file: FixtureRun.fileName,
      line: 2,
      column: 23
    )
  }

  @Test func theScrubbingStrategyIsWrittenScrubbed() throws {
    let run = try FixtureRun(source: Self.fresh)
    _ = expectIssues { run.run { assertUser(as: .lines.scrubbing(.uuids)) } }
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == Self.recorded("id UUID_1, friend UUID_2, again UUID_1"))
  }

  @Test func scopedScrubbersApplyToInlineSnapshots() throws {
    let run = try FixtureRun(source: Self.fresh)
    _ = expectIssues {
      run.run { withSnapshotTesting(scrubbing: [.uuids]) { assertUser(as: .lines) } }
    }
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == Self.recorded("id UUID_1, friend UUID_2, again UUID_1"))
  }

  @Test func aScrubbedSnapshotMatches() throws {
    let run = try FixtureRun(source: Self.recorded("id UUID_1, friend UUID_2, again UUID_1"))
    run.run {
      assertUser(as: .lines.scrubbing(.uuids)) { "id UUID_1, friend UUID_2, again UUID_1" }
    }
    #expect(run.writePending().isEmpty)
  }

  @Test func dumpScrubbingSpelling() throws {
    struct User { var id: UUID }
    let run = try FixtureRun(source: Self.fresh)
    run.run {
      assertInlineSnapshot(
        of: User(id: Self.id),
        as: .dump.scrubbing(.uuids),
        matches: { "▿ User\n  - id: UUID_1\n" },
        file: FixtureRun.fileName,
        line: 2,
        column: 23
      )
    }
  }
}
