import Foundation
import Testing

@testable import InlineSnapshotTesting

/// A comma after a call's last argument (Swift 6.1): read as the compiler reads it, and written
/// as upstream writes it, the comma kept where it stood.
@Suite struct TrailingCommaTests {
  /// swift-structured-queries' `assertQuery(_:sql:results:)`: `sql` at offset 0.
  static let sql = InlineSnapshotSyntaxDescriptor(trailingClosureLabel: "sql")

  @Test func reRecordsAClosureArgumentFollowedByATrailingComma() throws {
    let input = """
      func testSelect() {
        assertQuery(Row.all, sql: {
          \"\"\"
          SELECT 1
          \"\"\"
        },)
      }

      """
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [
        recording(
          "assertQuery", in: input, descriptor: Self.sql, expected: "SELECT 1",
          actual: "SELECT \"rows\".\"id\"\nFROM \"rows\"")
      ]
    )
    #expect(
      output == """
        func testSelect() {
          assertQuery(Row.all, sql: {
            \"\"\"
            SELECT "rows"."id"
            FROM "rows"
            \"\"\"
          },)
        }

        """
    )
  }

  @Test func reRecordsTheSecondOfTwoClosureArgumentsBeforeATrailingComma() throws {
    let input = """
      func f() {
          assertQuery(Row.all, sql: {
              \"\"\"
              SELECT 1
              \"\"\"
          }, results: {
              \"\"\"
              1
              \"\"\"
          },)
      }

      """
    let results = InlineSnapshotSyntaxDescriptor(
      trailingClosureLabel: "results", trailingClosureOffset: 1)
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [
        recording("assertQuery", in: input, descriptor: results, expected: "1", actual: "2")
      ]
    )
    #expect(output == input.replacingOccurrences(of: "    1\n", with: "    2\n"))
  }

  @Test func writesATrailingClosureAfterArgumentsEndingInAComma() throws {
    let input = "func f() {\n  assertInlineSnapshot(\n    of: x,\n    as: .lines,\n  )\n}\n"
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [recording(in: input, actual: "x")]
    )
    #expect(
      output
        == "func f() {\n  assertInlineSnapshot(\n    of: x,\n    as: .lines,\n  ) {\n"
        + "    \"\"\"\n    x\n    \"\"\"\n  }\n}\n"
    )
  }

  @Test func reRecordsACallThatIsItselfAnArgumentFollowedByAComma() throws {
    let input = """
      func f() {
        check(
          assertInlineSnapshot(of: x, as: .lines) {
            \"\"\"
            old
            \"\"\"
          },
        )
      }

      """
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [recording(in: input, expected: "old", actual: "new")]
    )
    #expect(output == input.replacingOccurrences(of: "old", with: "new"))
  }

  @Test func readsTheTrailingCommaIntoTheLastArgument() throws {
    let source = "f(a, { \"b\" },)\n"
    let call = try #require(ParsedSource(source).call(line: 1, column: 2))
    #expect(call.arguments.count == 2)
    #expect(call.arguments[1].closure?.literalText == "b")
    // The last argument ends after its comma, which a removal takes with it.
    #expect(call.arguments[1].end == source.utf8.count - 2)
    #expect(call.arguments[1].expressionEnd == source.utf8.count - 3)
  }

  // MARK: - Refusals name the shape, not a change of the file

  @Test(arguments: [
    (
      "f(\n#if DEBUG\n  a,\n#endif\n  b\n)\n", 1, 2, "a `#if` among the arguments", 2, 1
    ),
    ("if f(x) {\n}\n", 1, 5, "a call in a statement's head or a declaration", 1, 4),
    ("g(f(let x))\n", 1, 4, "an argument that binds a name", 1, 5),
    ("f(a, , b)\n", 1, 2, "an argument without an expression", 1, 6),
  ])
  func refusesAShapeItCannotReadAndSaysWhichAndWhere(
    source: String, line: Int, column: Int, shape: String, shapeLine: Int, shapeColumn: Int
  ) {
    let recording = InlineSnapshotRecording(
      line: line, column: column, syntaxDescriptor: .init(), expected: nil, actual: "x")
    let error = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(in: source, recordings: [recording])
    }
    let description = error?.description ?? ""
    #expect(description.contains(shape))
    #expect(description.contains("at line \(shapeLine), column \(shapeColumn)."))
    #expect(!description.contains("changed since the test was compiled"))
  }

  @Test func refusalMessageInFull() {
    let source = "f(\n#if DEBUG\n  a\n#endif\n)\n"
    let error = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(
        in: source,
        recordings: [
          InlineSnapshotRecording(
            line: 1, column: 2, syntaxDescriptor: .init(), expected: nil, actual: "x")
        ]
      )
    }
    #expect(
      error?.description == """
        The call whose arguments start at line 1, column 2 of the test's source has a shape the \
        inline snapshot rewriter does not read with certainty: a `#if` among the arguments, at \
        line 2, column 1. The snapshot was not written; write it into the source by hand, or \
        write the call without that shape.
        """
    )
  }

  /// Where nothing opens an argument list at the compiled position, the file did change.
  @Test func aPositionWithoutACallStillSaysTheFileChanged() {
    let source = "let x = 1\n"
    let error = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(
        in: source,
        recordings: [
          InlineSnapshotRecording(
            line: 1, column: 5, syntaxDescriptor: .init(), expected: nil, actual: "x")
        ]
      )
    }
    #expect(error == .callNotFound(line: 1, column: 5))
  }

  // MARK: - Through the assertion

  /// The assertion records into a call with a trailing comma, as upstream does; before, it
  /// refused, saying the file had changed since the test was compiled.
  @Test func assertionRecordsIntoACallWithATrailingComma() throws {
    let source = """
      @Test func example() {
        assertInlineSnapshot(
          of: "42",
          as: .lines,
        )
      }

      """
    let run = try FixtureRun(source: source)
    let issues = expectIssues {
      run.run {
        assertInlineSnapshot(
          of: "42",
          as: .lines,
          file: FixtureRun.fileName,
          line: 2,
          column: 23
        )
      }
    }
    #expect(issues.messages.count == 1)
    #expect(issues.messages.first?.hasPrefix("Automatically recorded a new snapshot.") == true)
    #expect(run.writePending().isEmpty)
    #expect(
      try run.text() == """
        @Test func example() {
          assertInlineSnapshot(
            of: "42",
            as: .lines,
          ) {
            \"\"\"
            42
            \"\"\"
          }
        }

        """
    )
  }

  @Test func assertionNamesTheShapeItRefused() throws {
    let source = """
      @Test func example() {
        assertInlineSnapshot(
      #if DEBUG
          of: "42",
      #else
          of: "43",
      #endif
          as: .lines
        )
      }

      """
    let run = try FixtureRun(source: source)
    let issues = expectIssues {
      run.run {
        assertInlineSnapshot(
          of: "42",
          as: .lines,
          file: FixtureRun.fileName,
          line: 2,
          column: 23
        )
      }
    }
    let message = issues.messages.joined()
    #expect(message.contains("a `#if` among the arguments, at line 3, column 1."))
    #expect(!message.contains("changed since the test was compiled"))
    #expect(run.writePending().isEmpty)
    #expect(try run.text() == source)
  }
}
