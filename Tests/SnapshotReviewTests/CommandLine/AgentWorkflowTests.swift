import Foundation
import Testing

@testable import SnapshotReview

/// The steps of Reviewing's "Reviewing from a coding agent" section, run with the built tool as an
/// agent runs it: no terminal (standard input is /dev/null), one command at a time.
@Suite struct AgentWorkflowTests {
  let tool = ExecutableTests()

  @Test func listReadOneDecideOneWithoutATerminal() throws {
    try ReviewFixture.with { fixture in
      let artifacts = ["--artifacts", fixture.artifacts.path]

      // 1. The failures as JSON: each with its reference, test file and line.
      let listed = try tool.run(["review", "--json"] + artifacts, in: fixture.root)
      #expect(listed.status == ToolExitCode.pending.rawValue)
      let document = try JSONValue.parse(listed.output)
      let failures = try #require(document["failures"]?.array)
      #expect(failures.count == 4)
      let greeting = try #require(failures.first { $0["test"] == .string("testGreeting()") })
      #expect(greeting["file"]?.string?.hasSuffix("ReviewFixture.swift") == true)
      if case .integer(let line)? = greeting["line"] { #expect(line > 0) } else {
        Issue.record("no line in \(greeting.text)")
      }

      // 2. One failure's diff, selected by its reference: the diff of that one and no prompt.
      let shown = try tool.run(
        ["review", "--list"] + artifacts + [fixture.relative(ReviewFixture.greeting)],
        in: fixture.root)
      #expect(shown.status == ToolExitCode.pending.rawValue)
      #expect(shown.output.hasPrefix("1 pending snapshot failure"))
      #expect(shown.output.contains("+there"))
      #expect(!shown.output.contains("see you"), "the other failures are not shown")
      // 3. The same without --list: no terminal, so no question is asked either.
      let plain = try tool.run(
        ["review"] + artifacts + [fixture.relative(ReviewFixture.greeting)], in: fixture.root)
      #expect(plain.output == shown.output)
      #expect(!plain.output.contains("[a]ccept"))

      // 4. Accept exactly that one; the others stay pending and their references untouched.
      let oldFarewell = contents(of: fixture.reference(ReviewFixture.farewell))
      let accepted = try tool.run(
        ["accept"] + artifacts + [fixture.relative(ReviewFixture.greeting)], in: fixture.root)
      #expect(accepted.status == 0)
      #expect(accepted.output.hasSuffix("Accepted 1.\n"))
      #expect(
        contents(of: fixture.reference(ReviewFixture.greeting)) == Data("Hello\nthere\n".utf8))
      #expect(contents(of: fixture.reference(ReviewFixture.farewell)) == oldFarewell)

      // 5. Reject exactly one other.
      let rejected = try tool.run(
        ["reject"] + artifacts + [fixture.relative(ReviewFixture.farewell)], in: fixture.root)
      #expect(rejected.status == 0)
      #expect(rejected.output.hasSuffix("Rejected 1.\n"))
      #expect(contents(of: fixture.reference(ReviewFixture.farewell)) == oldFarewell)

      let left = try tool.run(["review", "--json"] + artifacts, in: fixture.root)
      let remaining = try JSONValue.parse(left.output)["failures"]?.array ?? []
      #expect(remaining.count == 2)
    }
  }

  /// `accept` with neither a filter nor `--all` decides nothing: an agent cannot accept every
  /// failure by leaving the filter out.
  @Test func acceptWithoutASelectionChangesNothing() throws {
    try ReviewFixture.with { fixture in
      let before = fixture.packageFiles()
      let result = try tool.run(
        ["accept", "--artifacts", fixture.artifacts.path], in: fixture.root)
      #expect(result.status != 0)
      #expect(result.errors.contains("or pass --all"))
      #expect(fixture.packageFiles() == before)
    }
  }
}
