import Foundation
import RunRecord
import TestSupport
import Testing

@_spi(Internals) import SnapshotTesting
@testable import InlineSnapshotTesting

/// Every failure message `assertInlineSnapshot` reports, pinned in full.
///
/// Where upstream reports the same failure the text is upstream's, byte for byte; the comment on
/// each test names the upstream test it is taken from, or says it follows upstream's code when no
/// upstream test pins that text. `−` is U+2212 and a context line starts with U+2007, as in the
/// line diff upstream prints.
@Suite struct InlineFailureMessageTests {
  /// A test function whose one call has a snapshot closure returning `snapshot`, or none.
  static func source(snapshot: String?) -> String {
    guard let snapshot else {
      return """
        @Test func example() {
          assertInlineSnapshot(of: value, as: .lines)
        }

        """
    }
    let body = snapshot.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "    \($0)" }
      .joined(separator: "\n")
    return """
      @Test func example() {
        assertInlineSnapshot(of: value, as: .lines) {
          \"\"\"
      \(body)
          \"\"\"
        }
      }

      """
  }

  /// The messages one assertion reports against a fixture whose closure returns `expected`.
  func messages<Value>(
    of value: @autoclosure () throws -> Value?,
    as snapshotting: Snapshotting<Value, String>,
    message: String = "",
    record: SnapshotTestingConfiguration.Record? = nil,
    timeout: TimeInterval = 5,
    matches expected: String? = nil,
    environment: RunEnvironment = [:],
    function: StaticString = #function
  ) throws -> [String] {
    let source = Self.source(snapshot: expected)
    let run = try FixtureRun(source: source)
    let call = callPosition(of: "assertInlineSnapshot", in: source)
    return expectIssues {
      // The assertion catches what `value` throws; `try?` only satisfies the compiler.
      try? run.run(environment: environment) {
        assertInlineSnapshot(
          of: try value(),
          as: snapshotting,
          message: message,
          record: record,
          timeout: timeout,
          matches: expected.map { expected in { expected } },
          file: FixtureRun.fileName,
          function: function,
          line: UInt(call.line),
          column: UInt(call.column)
        )
      }
    }.messages
  }

  // Upstream: `inlineSnapshotFailure` (AssertInlineSnapshotSwiftTests).
  @Test func mismatch() throws {
    let messages = try messages(
      of: ["Hello", "World"],
      as: .dump,
      record: .missing,
      matches: """
        ▿ 2 elements
          - "Hello"

        """
    )
    #expect(
      messages == [
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,3 +1,4 @@
          \u{2007}▿ 2 elements
          \u{2007}  - "Hello"
          +  - "World"
          \u{2007}
        """
      ]
    )
  }

  // Follows upstream's code: a `message:` replaces the headline and its " Difference: …".
  @Test func mismatchWithACustomMessage() throws {
    let messages = try messages(of: "42", as: .lines, message: "Head did not match", matches: "4")
    #expect(
      messages == [
        """
        Head did not match

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}4
          +42
        """
      ]
    )
  }

  // Upstream: `testRecordFailed_IncorrectExpectation` (InlineSnapshotTestingTests).
  @Test func mismatchReRecordedInRecordModeFailed() throws {
    let messages = try messages(of: 42, as: .json, record: .failed, matches: "4")
    #expect(
      messages == [
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}4
          +42

        A new snapshot was automatically recorded.
        """
      ]
    )
  }

  // Upstream: `testRecordFailed_MissingExpectation` (InlineSnapshotTestingTests).
  @Test func missingSnapshotRecorded() throws {
    let messages = try messages(of: 42, as: .json, record: .failed)
    #expect(
      messages == [
        """
        Automatically recorded a new snapshot. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}
          +42

        Re-run "missingSnapshotRecorded()" to assert against the newly-recorded snapshot.
        """
      ]
    )
  }

  /// The Inline Snapshots article's first failure is this message, from this run.
  @Test func theArticlesFirstFailureIsWhatARunReports() throws {
    let messages = try messages(of: "Hello, " + "Blob!", as: .lines, function: "greeting()")
    let shown = try codeBlock(
      in: "Sources/InlineSnapshotTesting/Documentation.docc/InlineSnapshots.md",
      after: "the new text shown as a diff against an empty\nsnapshot:")
    #expect(messages == [shown])
  }

  // Follows upstream's code: a `nil` value diffs as empty text against an empty snapshot, so
  // there is no difference to show.
  @Test func missingSnapshotOfANilValueRecorded() throws {
    let messages = try messages(of: String?.none, as: .lines, record: .missing)
    #expect(
      messages == [
        """
        Automatically recorded a new snapshot.

        Re-run "missingSnapshotOfANilValueRecorded()" to assert against the newly-recorded \
        snapshot.
        """
      ]
    )
  }

  // Follows upstream's code: record mode `.all` diffs the old snapshot against the new one.
  @Test func recordModeAllWithADifference() throws {
    let messages = try messages(of: "42", as: .lines, record: .all, matches: "4")
    #expect(
      messages == [
        """
        Automatically recorded a new snapshot. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}4
          +42

        Re-run "recordModeAllWithADifference()" to assert against the newly-recorded snapshot.
        """
      ]
    )
  }

  // Follows upstream's code: record mode `.all` fails even when nothing changed.
  @Test func recordModeAllWithoutADifference() throws {
    let messages = try messages(of: "42", as: .lines, record: .all, matches: "42")
    #expect(
      messages == [
        """
        Automatically recorded a new snapshot.

        Re-run "recordModeAllWithoutADifference()" to assert against the newly-recorded snapshot.
        """
      ]
    )
  }

  // Upstream: `conditionalInlineSnapshot_Hello_NoTrailingClosure` (AssertInlineSnapshotSwiftTests).
  @Test func recordModeNeverWithoutASnapshot() throws {
    let messages = try messages(of: "Hello", as: .dump, record: .never)
    #expect(
      messages == [
        """
        No expected value to assert against. Actual: …

          - "Hello"

        """
      ]
    )
  }

  // Upstream: `conditionalInlineSnapshot_Goodbye_NoTrailingClosure` (AssertInlineSnapshotSwiftTests).
  @Test func recordModeNeverWithoutASnapshotOfANilValue() throws {
    let messages = try messages(of: String?.none, as: .dump, record: .never)
    #expect(messages == ["No expected value to assert against."])
  }

  // Only this library: a CI run with no record mode configured records nothing.
  @Test func missingSnapshotOnCI() throws {
    let messages = try messages(
      of: "42",
      as: .lines,
      environment: [.continuousIntegration: "true"]
    )
    #expect(
      messages == [
        """
        No expected value to assert against. Actual: …

          42

        Nothing was recorded: this is a CI run (the CI environment variable is set) and no record \
        mode is configured, so that a retried job can never pass on a snapshot it wrote itself. \
        Record the snapshot locally and commit it, or set SNAPSHOT_TESTING_RECORD=missing to \
        record on CI on purpose.
        """
      ]
    )
  }

  // Only this library: a missing snapshot that cannot be written says why, where upstream's
  // message says to re-run.
  @Test func missingSnapshotThatCannotBeWritten() throws {
    let run = try FixtureRun(source: Self.source(snapshot: nil))
    let issues = expectIssues {
      run.run {
        assertInlineSnapshot(
          of: "42",
          as: .lines,
          file: FixtureRun.fileName,
          line: 9,
          column: 1
        )
      }
    }
    let reason = InlineSnapshotWriteError.rewrite(
      path: "Fixture.swift",
      .callNotFound(line: 9, column: 1)
    )
    #expect(
      issues.messages == [
        """
        Could not record a new snapshot. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}
          +42

        \(reason)
        """
      ]
    )
  }

  // Only this library: a re-recording that cannot be written says why in place of upstream's
  // "A new snapshot was automatically recorded."
  @Test func mismatchThatCannotBeReRecorded() throws {
    let run = try FixtureRun(source: Self.source(snapshot: "4"))
    let call = callPosition(of: "assertInlineSnapshot", in: Self.source(snapshot: "4"))
    let issues = expectIssues {
      run.run {
        assertInlineSnapshot(
          of: "42",
          as: .lines,
          record: .failed,
          matches: { "5" },
          file: FixtureRun.fileName,
          line: UInt(call.line),
          column: UInt(call.column)
        )
      }
    }
    let reason = InlineSnapshotWriteError.rewrite(
      path: "Fixture.swift",
      .closureChanged(
        line: 2,
        label: "matches",
        detail: "no longer returns the text the running test was compiled with"
      )
    )
    #expect(
      issues.messages == [
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}5
          +42

        \(reason)
        """
      ]
    )
  }

  // Upstream's timeout text, down to the line break before "assertInlineSnapshot".
  @Test func timeout() throws {
    let silent = Snapshotting<String, String>(
      pathExtension: "txt",
      diffing: .lines,
      asyncSnapshot: { _ in Async { _ in } }
    )
    let messages = try messages(of: "42", as: silent, timeout: 0.05)
    #expect(
      messages == [
        """
        Exceeded timeout of 0.05 seconds waiting for snapshot.

        This can happen when an asynchronously loaded value (like a network response) has not \
        loaded. If a timeout is unavoidable, consider setting the "timeout" parameter of
        "assertInlineSnapshot" to a higher value.
        """
      ]
    )
  }

  // Upstream's `catch`: "Threw error: " and the error.
  @Test func thrownError() throws {
    struct Boom: Error {}
    let messages = try messages(
      of: try { () throws -> String in throw Boom() }(),
      as: .lines
    )
    #expect(messages == ["Threw error: Boom()"])
  }

  // Only this library: a strategy that cannot snapshot the value fails before comparing.
  @Test func valueTheStrategyCannotSnapshot() throws {
    let messages = try messages(of: Double.nan, as: .json)
    #expect(messages.count == 1)
    #expect(messages.first?.hasPrefix("Could not encode Double as JSON:") == true)
    #expect(
      messages.first?.hasSuffix(
        """


        The strategy could not produce a snapshot of this value, so nothing was compared and \
        nothing was written into the test.
        """
      ) == true
    )
  }
}
