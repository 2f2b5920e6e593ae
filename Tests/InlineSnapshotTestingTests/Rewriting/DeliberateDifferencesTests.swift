import Testing

@testable import InlineSnapshotTesting

/// The rewrites where this package deliberately writes other bytes than upstream 1.19.7, one test
/// each; the inline article's table "Where the rewrite differs from upstream" lists them, with
/// upstream's output (taken from a run of upstream on the same input) and why.
@Suite struct DeliberateDifferencesTests {
  static let sql = InlineSnapshotSyntaxDescriptor(trailingClosureLabel: "sql")
  static let diagnostics = InlineSnapshotSyntaxDescriptor(
    trailingClosureLabel: "diagnostics",
    trailingClosureOffset: 1
  )

  /// Upstream deletes the comment: `assertQuery(Row.all) {`.
  @Test func keepsACommentBetweenTheParenthesesAndTheClosure() throws {
    let input = """
      func testSelect() {
        assertQuery(Row.all) /* sql: */ {
          \"\"\"
          old
          \"\"\"
        }
      }

      """
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [
        recording("assertQuery", in: input, descriptor: Self.sql, expected: "old", actual: "new")
      ]
    )
    #expect(output == input.replacingOccurrences(of: "old", with: "new"))
  }

  /// Upstream deletes the comment: `assertInlineSnapshot(of: x, as: .lines) {`.
  @Test func keepsACommentAfterTheCall() throws {
    let input = """
      func testGreeting() {
        assertInlineSnapshot(of: x, as: .lines) // the greeting
      }

      """
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [recording(in: input, actual: "x")]
    )
    #expect(
      output == """
        func testGreeting() {
          assertInlineSnapshot(of: x, as: .lines) {
            \"\"\"
            x
            \"\"\"
          } // the greeting
        }

        """
    )
  }

  /// Upstream writes the new closure into the comment: `} // the sourcediagnostics: {`, which
  /// no longer compiles.
  @Test func writesAClosureAfterALineCommentOnItsOwnLine() throws {
    let input = """
      func testMacro() {
        assertMacro {
          \"\"\"
          #x
          \"\"\"
        } // the source
        expansion: {
          \"\"\"
          x
          \"\"\"
        }
      }

      """
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [
        recording("assertMacro", in: input, descriptor: Self.diagnostics, actual: "d")
      ]
    )
    #expect(
      output == """
        func testMacro() {
          assertMacro {
            \"\"\"
            #x
            \"\"\"
          } // the source
          diagnostics: {
            \"\"\"
            d
            \"\"\"
          } expansion: {
            \"\"\"
            x
            \"\"\"
          }
        }

        """
    )
  }

  /// Upstream, outside `record: .all`, reports "Automatically recorded a new snapshot for
  /// "diagnostics"" and leaves the file as it was.
  @Test func writesAClosureBeforeOneThatStays() throws {
    let input = """
      func testMacro() {
        assertMacro {
          \"\"\"
          #x
          \"\"\"
        } expansion: {
          \"\"\"
          x
          \"\"\"
        }
      }

      """
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [
        recording("assertMacro", in: input, descriptor: Self.diagnostics, actual: "d")
      ]
    )
    #expect(
      output == """
        func testMacro() {
          assertMacro {
            \"\"\"
            #x
            \"\"\"
          } diagnostics: {
            \"\"\"
            d
            \"\"\"
          } expansion: {
            \"\"\"
            x
            \"\"\"
          }
        }

        """
    )
  }
}
