import Testing

@testable import InlineSnapshotTesting

/// The rewriting core on fixtures: `__Fixtures__/Rewriting/<case>.input.swift.txt` rewritten with
/// the recordings below must equal `<case>.expected.swift.txt` byte for byte.
@Suite struct RewriteInlineSnapshotsTests {
  @Test func recordsIntoAFreshTrailingClosure() throws {
    let input = try rewritingFixture("FreshClosure.input")
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [recording(in: input, actual: "Hello, Blob!")]
    )
    #expect(output == (try rewritingFixture("FreshClosure.expected")))
  }

  @Test func reRecordsAnExistingClosureWithTheFilesIndentation() throws {
    let input = try rewritingFixture("ReRecord.input")
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [
        recording(in: input, expected: "Hello, Blob!", actual: "Hello, Blob!\nHow are you?")
      ]
    )
    #expect(output == (try rewritingFixture("ReRecord.expected")))
  }

  @Test func writesSeveralSnapshotsPerFunctionAndFileInOnePass() throws {
    let input = try rewritingFixture("SeveralPerFunction.input")
    let recordings = severalPerFunctionRecordings(in: input)
    let expected = try rewritingFixture("SeveralPerFunction.expected")
    #expect(try rewriteInlineSnapshots(in: input, recordings: recordings) == expected)
    // The order recordings arrive in (tests run in any order) does not matter.
    #expect(try rewriteInlineSnapshots(in: input, recordings: recordings.reversed()) == expected)
  }

  @Test func followsSyntaxDescriptorsOfHelpers() throws {
    let input = try rewritingFixture("Helpers.input")
    let greeting = InlineSnapshotSyntaxDescriptor(
      deprecatedTrailingClosureLabels: ["matches"],
      trailingClosureLabel: "greeting",
      trailingClosureOffset: 1
    )
    let recordings = [
      recording("assertGreeting", in: input, descriptor: greeting, actual: "Hello, Blob!"),
      recording(
        "assertGreeting",
        in: input,
        occurrence: 2,
        descriptor: greeting,
        expected: "Hi Alice",
        actual: "Hello, Alice!"
      ),
      // As swift-macro-testing records them: a new closure inserted before an existing one.
      recording(
        "assertMacro",
        in: input,
        descriptor: InlineSnapshotSyntaxDescriptor(
          trailingClosureLabel: "diagnostics",
          trailingClosureOffset: 1
        ),
        actual: "diag"
      ),
      recording(
        "assertMacro",
        in: input,
        descriptor: InlineSnapshotSyntaxDescriptor(
          trailingClosureLabel: "expansion",
          trailingClosureOffset: 2
        ),
        expected: "old",
        actual: "new"
      ),
    ]
    #expect(
      try rewriteInlineSnapshots(in: input, recordings: recordings)
        == (try rewritingFixture("Helpers.expected"))
    )
  }

  @Test func escapesTextWithRawDelimitersAndEscapes() throws {
    let input = try rewritingFixture("Escaping.input")
    let texts = [
      #"She said """hi""""#,
      #"path\to\file"#,
      ##"#"""# and \#(x)"##,
      "# heading\n\n  indented",
      "line one\r\nline two  \n\u{1B}[31mred\u{1B}[0m",
    ]
    let recordings = texts.enumerated().map { index, text in
      recording(in: input, occurrence: index + 1, actual: text)
    }
    #expect(
      try rewriteInlineSnapshots(in: input, recordings: recordings)
        == (try rewritingFixture("Escaping.expected"))
    )
  }

  @Test func removesClosuresAndRewritesClosureArguments() throws {
    let input = try rewritingFixture("RemovalAndArgument.input")
    let recordings = [
      recording(in: input, occurrence: 1, expected: "gone", actual: nil),
      recording(in: input, occurrence: 2, expected: "old", actual: "new"),
    ]
    #expect(
      try rewriteInlineSnapshots(in: input, recordings: recordings)
        == (try rewritingFixture("RemovalAndArgument.expected"))
    )
  }

  @Test func keepsTabsAndWindowsLineEndings() throws {
    let input =
      "func f() {\r\n\tif true {\r\n\t\tassertInlineSnapshot(of: x, as: .lines)\r\n\t}\r\n}\r\n"
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [recording(in: input, actual: "a\nb")]
    )
    #expect(
      output
        == "func f() {\r\n\tif true {\r\n\t\tassertInlineSnapshot(of: x, as: .lines) {\r\n"
        + "\t\t\t\"\"\"\r\n\t\t\ta\r\n\t\t\tb\r\n\t\t\t\"\"\"\r\n\t\t}\r\n\t}\r\n}\r\n"
    )
    // Re-recording compares the closure's text with line endings normalised, as the compiler does.
    let again = try rewriteInlineSnapshots(
      in: output,
      recordings: [recording(in: output, expected: "a\nb", actual: "c")]
    )
    #expect(again.contains("\t\t\t\"\"\"\r\n\t\t\tc\r\n\t\t\t\"\"\"\r\n"))
  }

  @Test func leavesMatchingSnapshotsAndEmptyRecordingListsAlone() throws {
    let input = try rewritingFixture("ReRecord.input")
    #expect(try rewriteInlineSnapshots(in: input, recordings: []) == input)
    #expect(
      try rewriteInlineSnapshots(
        in: input,
        recordings: [recording(in: input, expected: "Hello, Blob!", actual: "Hello, Blob!")]
      ) == input
    )
  }

  @Test func writesAnEmptySnapshot() throws {
    let input = "f {\n  assertInlineSnapshot(of: \"\", as: .lines)\n}\n"
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [recording(in: input, actual: "")]
    )
    #expect(
      output
        == "f {\n  assertInlineSnapshot(of: \"\", as: .lines) {\n    \"\"\"\n\n    \"\"\"\n  }\n}\n"
    )
  }

  /// Calls nested in a recorded call's arguments, and calls before and after it: one pass over
  /// all of them writes what one pass per recording writes, from the last call to the first.
  @Test func onePassWritesWhatOnePassPerRecordingWrites() throws {
    let input = """
      func f() {
        assertInlineSnapshot(of: 0, as: .description)
        assertInlineSnapshot(of: { () -> Int in
          assertInlineSnapshot(of: 1, as: .description)
          assertInlineSnapshot(of: 2, as: .description) {
            \"\"\"
            two
            \"\"\"
          }
          return 3
        }(), as: .description)
        assertInlineSnapshot(of: 4, as: .description)
      }

      """
    let recordings = [
      recording(in: input, occurrence: 1, actual: "0"),
      recording(in: input, occurrence: 2, actual: "3"),
      recording(in: input, occurrence: 3, actual: "1"),
      recording(in: input, occurrence: 4, expected: "two", actual: "2"),
      recording(in: input, occurrence: 5, actual: "4"),
    ]
    var oneByOne = input
    for recording in recordings.sorted(by: { $0.slot < $1.slot }) {
      oneByOne = try rewriteInlineSnapshots(in: oneByOne, recordings: [recording])
    }
    #expect(try rewriteInlineSnapshots(in: input, recordings: recordings) == oneByOne)
    #expect(try rewriteInlineSnapshots(in: input, recordings: recordings.reversed()) == oneByOne)
    #expect(oneByOne.components(separatedBy: "\"\"\"").count == 11)
  }

  // MARK: - Refusals: the file is never damaged

  @Test func refusesSourceThatDoesNotParse() throws {
    let input = "func f( {\n  assertInlineSnapshot(of: 1, as: .description)\n"
    let error = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(in: input, recordings: [recording(in: input, actual: "1")])
    }
    #expect(
      error?.description.hasPrefix("The test's source does not parse (the first error is on line")
        == true
    )
    #expect(error?.description.hasSuffix("The snapshot was not written; re-run the test.") == true)
  }

  @Test func refusesWhenNoCallIsAtTheCompiledPosition() throws {
    let input = try rewritingFixture("FreshClosure.input")
    let moved = InlineSnapshotRecording(
      line: 4,
      column: 3,
      syntaxDescriptor: .init(),
      expected: nil,
      actual: "x"
    )
    let error = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(in: input, recordings: [moved])
    }
    #expect(error == .callNotFound(line: 4, column: 3))
    #expect(
      error?.description == """
        No call starts its arguments at line 4, column 3 of the test's source, so the file has \
        changed since the test was compiled. The snapshot was not written; re-run the test.
        """
    )
  }

  @Test func refusesWhenTheClosureChangedSinceCompilation() throws {
    let input = try rewritingFixture("ReRecord.input")
    let edited = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(
        in: input,
        recordings: [recording(in: input, expected: "Hello, Bob!", actual: "x")]
      )
    }
    #expect(
      edited?.description == """
        The "matches" snapshot of the call on line 6 no longer returns the text the running test \
        was compiled with, so the file has changed since the test was compiled. The snapshot was \
        not written; re-run the test.
        """
    )
    let added = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(in: input, recordings: [recording(in: input, actual: "x")])
    }
    #expect(added?.description.contains("is in the source, but the running test had none") == true)

    let fresh = try rewritingFixture("FreshClosure.input")
    let removed = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(
        in: fresh,
        recordings: [recording(in: fresh, expected: "old", actual: "x")]
      )
    }
    #expect(
      removed?.description.contains("is missing from the source, but the running test had one")
        == true
    )
  }

  @Test func refusesDescriptorsThatPointNowhere() throws {
    let input = "f {\n  helper(x)\n}\n"
    let offsetOne = InlineSnapshotSyntaxDescriptor(
      trailingClosureLabel: "b",
      trailingClosureOffset: 1
    )
    let noFirstClosure = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(
        in: input,
        recordings: [recording("helper", in: input, descriptor: offsetOne, actual: "x")]
      )
    }
    #expect(noFirstClosure == .noClosureToFollow(line: 2, label: "b", offset: 1))

    let negative = InlineSnapshotSyntaxDescriptor(trailingClosureOffset: -1)
    let beforeClosures = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(
        in: input,
        recordings: [recording("helper", in: input, descriptor: negative, actual: "x")]
      )
    }
    #expect(beforeClosures == .negativeOffset(line: 2, offset: -1))
  }

  // MARK: - Raw delimiters

  @Test(arguments: [
    ("plain text", 0),
    ("# a heading and \"quotes\" and \"\"", 0),
    (#"a \ backslash"#, 1),
    (#"""""#, 1),
    (#""""""#, 1),
    ("\"\"\"\"#\"", 2),
    (##"\#(x)"##, 2),
    ("\"\"\"###", 4),
    (#"\"#, 1),
  ])
  func rawDelimiterLengths(text: String, pounds: Int) {
    #expect(rawDelimiterLength(for: text) == pounds)
  }
}
