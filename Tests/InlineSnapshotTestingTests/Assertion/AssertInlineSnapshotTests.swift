import Foundation
import RunRecord
import Testing

@_spi(Internals) import SnapshotTesting
@testable import InlineSnapshotTesting

/// End to end under Swift Testing: the assertion, the record modes, the issue it records, and the
/// file written into a temporary copy of a fixture.
@Suite struct AssertInlineSnapshotTests {
  static let fresh = """
    @Test func greeting() {
      assertInlineSnapshot(of: name, as: .lines)
    }

    """

  static let recorded = """
    @Test func greeting() {
      assertInlineSnapshot(of: name, as: .lines) {
        \"\"\"
        Hello, Blob!
        \"\"\"
      }
    }

    """

  /// The position of the fixture's `assertInlineSnapshot` call.
  static let call = (line: UInt(2), column: UInt(23))

  func assertGreeting(
    _ value: String,
    record: SnapshotTestingConfiguration.Record? = nil,
    matches expected: (() -> String)? = nil
  ) {
    assertInlineSnapshot(
      of: value,
      as: .lines,
      record: record,
      matches: expected,
      file: FixtureRun.fileName,
      line: Self.call.line,
      column: Self.call.column
    )
  }

  @Test func recordsAMissingSnapshotIntoAFreshClosure() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues { run.run { assertGreeting("Hello, Blob!") } }
    #expect(
      issues.messages == [
        """
        Automatically recorded a new snapshot. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}
          +Hello, Blob!

        Re-run "assertGreeting(_:record:matches:)" to assert against the newly-recorded snapshot.
        """
      ]
    )
    #expect(try run.text() == Self.fresh, "Nothing is written before the end of the run.")
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == Self.recorded)
    #expect(run.writePending().isEmpty, "A second flush has nothing left to write.")
    #expect(try run.text() == Self.recorded)
  }

  @Test func passesWhenTheSnapshotMatches() throws {
    let run = try FixtureRun(source: Self.recorded)
    run.run { assertGreeting("Hello, Blob!", matches: { "Hello, Blob!" }) }
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == Self.recorded)
  }

  @Test func failsWithTheLineDiffOnAMismatchWithoutWriting() throws {
    let run = try FixtureRun(source: Self.recorded)
    let issues = expectIssues {
      run.run { assertGreeting("Hello, Blobby!", matches: { "Hello, Blob!" }) }
    }
    #expect(
      issues.messages == [
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}Hello, Blob!
          +Hello, Blobby!
        """
      ]
    )
    #expect(issues.lines == [2], "The failure points at the snapshot closure's brace.")
    run.writePending()
    #expect(try run.text() == Self.recorded)
  }

  @Test func reRecordsAMismatchInRecordModeFailed() throws {
    let run = try FixtureRun(source: Self.recorded)
    let issues = expectIssues {
      run.run {
        withSnapshotTesting(record: .failed) {
          assertGreeting("Hi, Blob!", matches: { "Hello, Blob!" })
        }
      }
    }
    #expect(
      issues.messages == [
        """
        Snapshot did not match. Difference: …

          @@ \u{2212}1,1 +1,1 @@
          \u{2212}Hello, Blob!
          +Hi, Blob!

        A new snapshot was automatically recorded.
        """
      ]
    )
    #expect(run.writePending().isEmpty)
    #expect(
      try run.text() == Self.recorded.replacingOccurrences(of: "Hello, Blob!", with: "Hi, Blob!")
    )
  }

  @Test func recordModeAllRecordsEvenAMatch() throws {
    let run = try FixtureRun(source: Self.recorded)
    let issues = expectIssues {
      run.run { assertGreeting("Hello, Blob!", record: .all, matches: { "Hello, Blob!" }) }
    }
    #expect(
      issues.messages == [
        """
        Automatically recorded a new snapshot.

        Re-run "assertGreeting(_:record:matches:)" to assert against the newly-recorded snapshot.
        """
      ]
    )
    run.writePending()
    #expect(try run.text() == Self.recorded, "An identical snapshot leaves the file as it was.")
  }

  @Test func recordModeNeverWritesNothing() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues { run.run { assertGreeting("Hello, Blob!", record: .never) } }
    #expect(issues.messages == ["No expected value to assert against. Actual: …\n\n  Hello, Blob!"])
    run.writePending()
    #expect(try run.text() == Self.fresh)
  }

  @Test func onCIAMissingSnapshotIsNotRecorded() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      run.run(environment: [.continuousIntegration: "true"]) { assertGreeting("Hello, Blob!") }
    }
    #expect(
      issues.messages == [
        """
        No expected value to assert against. Actual: …

          Hello, Blob!

        Nothing was recorded: this is a CI run (the CI environment variable is set) and no record \
        mode is configured, so that a retried job can never pass on a snapshot it wrote itself. \
        Record the snapshot locally and commit it, or set SNAPSHOT_TESTING_RECORD=missing to \
        record on CI on purpose.
        """
      ]
    )
    run.writePending()
    #expect(try run.text() == Self.fresh)

    // Configured on purpose, CI records.
    _ = expectIssues {
      run.run(environment: [.continuousIntegration: "true", .record: "missing"]) {
        assertGreeting("Hello, Blob!")
      }
    }
    run.writePending()
    #expect(try run.text() == Self.recorded)
  }

  @Test func anInvalidRecordModeVariableFails() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      run.run(environment: [.record: "sometimes"]) { assertGreeting("x") }
    }
    #expect(
      issues.messages.first?.hasPrefix(#"SNAPSHOT_TESTING_RECORD is set to "sometimes""#) == true
    )
  }

  @Test func aFileWhoseCallWasEditedDuringTheRunIsLeftUntouched() throws {
    let run = try FixtureRun(source: Self.fresh)
    _ = expectIssues { run.run { assertGreeting("Hello, Blob!") } }
    let edited = Self.fresh.replacingOccurrences(of: "of: name", with: "of: fullName")
    try Data(edited.utf8).write(to: run.url)
    let failures = run.writePending()
    #expect(failures == [.changedOnDisk(path: run.url.path)])
    #expect(
      failures.first?.description == """
        "\(run.url.path)" changed on disk while the tests ran and the recorded calls could not be \
        found in it unchanged, so its inline snapshots were not written. Re-run the tests to \
        record them.
        """
    )
    #expect(try run.text() == edited)
  }

  @Test func recordingsFollowTheirCallWhenAnotherProcessShiftedTheFile() throws {
    let source = """
      @Test func first() {
        assertInlineSnapshot(of: a, as: .lines)
      }

      @Test func second() {
        assertInlineSnapshot(of: b, as: .lines)
      }

      """
    let first = callPosition(of: "assertInlineSnapshot", in: source, occurrence: 1)
    let second = callPosition(of: "assertInlineSnapshot", in: source, occurrence: 2)
    // Two test processes of one run: each read the file before the other wrote it.
    let run = try FixtureRun(source: source)
    let otherProcess = InlineSnapshotStore(redirectingPaths: [
      "\(FixtureRun.fileName)": run.url.path
    ])
    _ = expectIssues {
      run.run {
        assertInlineSnapshot(
          of: "B",
          as: .lines,
          file: FixtureRun.fileName,
          line: UInt(second.line),
          column: UInt(second.column)
        )
      }
      // The other process, under the same controlled environment (not CI's).
      run.run {
        TestHooks.with(InlineSnapshotStore.Private.self, otherProcess) {
          assertInlineSnapshot(
            of: "A",
            as: .lines,
            file: FixtureRun.fileName,
            line: UInt(first.line),
            column: UInt(first.column)
          )
        }
      }
    }
    #expect(otherProcess.writePending().isEmpty)
    #expect(run.writePending().isEmpty)
    #expect(
      try run.text() == """
        @Test func first() {
          assertInlineSnapshot(of: a, as: .lines) {
            \"\"\"
            A
            \"\"\"
          }
        }

        @Test func second() {
          assertInlineSnapshot(of: b, as: .lines) {
            \"\"\"
            B
            \"\"\"
          }
        }

        """
    )
  }

  @Test func aClosureChangedSinceCompilationFailsTheAssertion() throws {
    let run = try FixtureRun(source: Self.recorded)
    let issues = expectIssues {
      run.run { assertGreeting("Hi", record: .failed, matches: { "Hello, Bob!" }) }
    }
    #expect(
      issues.messages.first?.contains(
        """
        Could not record an inline snapshot in "Fixture.swift". The "matches" snapshot of the \
        call on line 2 no longer returns the text the running test was compiled with
        """
      ) == true
    )
    run.writePending()
    #expect(try run.text() == Self.recorded)
  }

  @Test func aCallThatRecordsTwoDifferentValuesKeepsTheFirst() throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      run.run {
        assertGreeting("Hello, Blob!")
        assertGreeting("Goodbye")
      }
    }
    #expect(issues.messages.count == 2)
    #expect(issues.messages.last?.contains("was recorded more than once in this run") == true)
    run.writePending()
    #expect(try run.text() == Self.recorded)
  }

  @Test func aThrowingValueFails() throws {
    struct Boom: Error {}
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      try? run.run {
        assertInlineSnapshot(
          of: try { () throws -> String in throw Boom() }(),
          as: .lines,
          file: FixtureRun.fileName,
          line: Self.call.line,
          column: Self.call.column
        )
      }
    }
    #expect(issues.messages == ["Threw error: Boom()"])
  }

  @Test(arguments: [SnapshotTestingConfiguration.Record.all, .failed, .missing, .never])
  func aValueTheStrategyCannotSnapshotFailsAndWritesNothing(
    _ mode: SnapshotTestingConfiguration.Record
  ) throws {
    let run = try FixtureRun(source: Self.fresh)
    let issues = expectIssues {
      run.run {
        assertInlineSnapshot(
          of: Double.nan,
          as: .json,
          record: mode,
          file: FixtureRun.fileName,
          line: Self.call.line,
          column: Self.call.column
        )
      }
    }
    #expect(issues.messages.count == 1)
    #expect(issues.messages.first?.hasPrefix("Could not encode Double as JSON:") == true)
    #expect(issues.messages.first?.hasSuffix("nothing was written into the test.") == true)
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == Self.fresh)
  }

  @Test func anAsynchronousStrategyThatNeverAnswersTimesOut() throws {
    let run = try FixtureRun(source: Self.fresh)
    let silent = Snapshotting<String, String>(
      pathExtension: "txt",
      diffing: .lines,
      asyncSnapshot: { _ in Async { _ in } }
    )
    let issues = expectIssues {
      run.run {
        assertInlineSnapshot(
          of: "x",
          as: silent,
          timeout: 0.05,
          file: FixtureRun.fileName,
          line: Self.call.line,
          column: Self.call.column
        )
      }
    }
    #expect(
      issues.messages.first?.hasPrefix("Exceeded timeout of 0.05 seconds waiting for snapshot.")
        == true
    )
  }

  @Test func writesAtomicallyAndKeepsPermissions() throws {
    let run = try FixtureRun(source: Self.fresh)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: run.url.path)
    _ = expectIssues { run.run { assertGreeting("Hello, Blob!") } }
    run.writePending()
    #expect(try run.text() == Self.recorded)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: run.folder.path)
    #expect(leftovers == ["Fixture.swift"])
    let permissions = try FileManager.default.attributesOfItem(atPath: run.url.path)[
      .posixPermissions
    ]
    #expect((permissions as? NSNumber)?.intValue == 0o640)
  }
}
