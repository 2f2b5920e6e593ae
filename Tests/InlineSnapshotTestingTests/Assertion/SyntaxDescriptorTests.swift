import Foundation
import Testing

@_spi(Internals) import SnapshotTesting
@testable import InlineSnapshotTesting

/// A user's own helper around `assertInlineSnapshot`: it takes a setup closure first and keeps its
/// snapshot in a second trailing closure labelled `greeting`, formerly `matches`.
func assertGreeting(
  for name: String,
  setup: () -> String,
  greeting expected: (() -> String)? = nil,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  assertInlineSnapshot(
    of: "\(setup()), \(name)!",
    as: .lines,
    syntaxDescriptor: InlineSnapshotSyntaxDescriptor(
      deprecatedTrailingClosureLabels: ["matches"],
      trailingClosureLabel: "greeting",
      trailingClosureOffset: 1
    ),
    matches: expected,
    fileID: fileID,
    file: filePath,
    function: function,
    line: line,
    column: column
  )
}

@Suite struct SyntaxDescriptorTests {
  static let source = """
    @Test func greetings() {
      assertGreeting(for: "Blob") {
        "Hello"
      }
      assertGreeting(for: "Alice") {
        "Hi"
      } matches: {
        \"\"\"
        Hello, Alice!
        \"\"\"
      }
    }

    """

  @Test func aHelperRecordsIntoItsOwnLabelledClosures() throws {
    let run = try FixtureRun(source: Self.source)
    let first = callPosition(of: "assertGreeting", in: Self.source, occurrence: 1)
    let second = callPosition(of: "assertGreeting", in: Self.source, occurrence: 2)
    let issues = expectIssues {
      run.run {
        withSnapshotTesting(record: .failed) {
          assertGreeting(
            for: "Blob",
            setup: { "Hello" },
            file: FixtureRun.fileName,
            line: UInt(first.line),
            column: UInt(first.column)
          )
          assertGreeting(
            for: "Alice",
            setup: { "Hi" },
            greeting: { "Hello, Alice!" },
            file: FixtureRun.fileName,
            line: UInt(second.line),
            column: UInt(second.column)
          )
        }
      }
    }
    #expect(
      issues.messages == [
        """
        Automatically recorded a new snapshot for "greeting". Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}
          +Hello, Blob!

        Re-run "aHelperRecordsIntoItsOwnLabelledClosures()" to assert against the newly-recorded \
        snapshot.
        """,
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}Hello, Alice!
          +Hi, Alice!

        A new snapshot was automatically recorded.
        """,
      ]
    )
    // The mismatch is reported on the line of the helper's snapshot closure.
    #expect(issues.lines.last == 7)
    #expect(run.writePending().isEmpty)
    #expect(
      try run.text() == """
        @Test func greetings() {
          assertGreeting(for: "Blob") {
            "Hello"
          } greeting: {
            \"\"\"
            Hello, Blob!
            \"\"\"
          }
          assertGreeting(for: "Alice") {
            "Hi"
          } greeting: {
            \"\"\"
            Hi, Alice!
            \"\"\"
          }
        }

        """
    )
  }

  @Test func failPointsAtTheDescribedClosureOrFallsBackToTheCall() throws {
    let run = try FixtureRun(source: Self.source)
    let second = callPosition(of: "assertGreeting", in: Self.source, occurrence: 2)
    let descriptor = InlineSnapshotSyntaxDescriptor(
      deprecatedTrailingClosureLabels: ["matches"],
      trailingClosureLabel: "greeting",
      trailingClosureOffset: 1
    )
    let issues = expectIssues {
      run.run {
        descriptor.fail(
          "custom failure",
          fileID: "InlineSnapshotTestingTests/Fixture.swift",
          file: FixtureRun.fileName,
          line: UInt(second.line),
          column: UInt(second.column)
        )
        descriptor.fail(
          "no call there",
          fileID: "InlineSnapshotTestingTests/Fixture.swift",
          file: FixtureRun.fileName,
          line: 99,
          column: 1
        )
      }
    }
    #expect(issues.messages == ["custom failure", "no call there"])
    #expect(issues.lines == [7, 99])
  }

  @Test func descriptorDefaults() {
    let descriptor = InlineSnapshotSyntaxDescriptor()
    #expect(InlineSnapshotSyntaxDescriptor.defaultTrailingClosureLabel == "matches")
    #expect(descriptor.trailingClosureLabel == "matches")
    #expect(descriptor.trailingClosureOffset == 0)
    #expect(descriptor.deprecatedTrailingClosureLabels.isEmpty)
    #expect(descriptor != InlineSnapshotSyntaxDescriptor(trailingClosureOffset: 1))
  }
}
