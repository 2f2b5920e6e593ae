import Testing

@testable import InlineSnapshotTesting

/// The lexer and the call reader that replaced swift-syntax: every token kind that can stand in a
/// call, the literal values it reads back, and what it refuses.
@Suite struct SwiftScannerTests {
  /// The tokens' texts and kinds.
  private func tokens(_ source: String) throws -> [(String, SwiftToken.Kind)] {
    let bytes = Array(source.utf8)
    return try SwiftScanner.scan(bytes).map {
      (String(decoding: bytes[$0.start..<$0.end], as: UTF8.self), $0.kind)
    }
  }

  private func scanError(_ source: String) -> SwiftScanError? {
    do {
      _ = try SwiftScanner.scan(Array(source.utf8))
      return nil
    } catch {
      return error
    }
  }

  @Test func skipsCommentsNestedToAnyDepth() throws {
    let scanned = try tokens("a /* x /* { */ ( */ b // } )\nc")
    #expect(scanned.map(\.0) == ["a", "b", "c"])
    #expect(scanError("a /* /* */ b")?.reason == "an unterminated block comment")
  }

  @Test(arguments: [
    (#""a } b""#, "a } b"),
    (##"#"a \n "b" } \#n"#"##, "a \\n \"b\" } \n"),
    ("###\"a\"## \\##t\"###", "a\"## \\##t"),
    (#""\u{1F600}\0\t\"\'\\""#, "\u{1F600}\0\t\"'\\"),
    ("\"\"\"\n  a\n   b }\n\n  \"\"\"", "a\n b }\n"),
    ("\"\"\"\n    x \\\n    y\n    \"\"\"", "x y"),
    ("#\"\"\"\n  \"\"\" \\n\n  \"\"\"#", "\"\"\" \\n"),
    ("\"\"\"\r\n  a\r\n  b\r\n  \"\"\"", "a\r\nb"),
    // Raw literals that open with three quotes but close on their line are single-line ones.
    (##"#"""#"##, "\""),
    (##"#""""#"##, "\"\""),
    (##"#"""""#"##, "\"\"\""),
    (###"##""""# x "##"###, "\"\"\"# x "),
  ])
  func readsTheValueOfEveryKindOfStringLiteral(source: String, value: String) throws {
    let scanned = try SwiftScanner.scan(Array(source.utf8))
    #expect(scanned.count == 1)
    #expect(scanned.first?.kind == .string)
    #expect(scanned.first?.literalValue == value)
  }

  @Test func readsInterpolationsNestedToAnyDepth() throws {
    let source = ##"f("a \(g("b \(h(")") + #"\#(")")"#) }")) c") { }"##
    let scanned = try tokens(source)
    #expect(scanned.map(\.0) == ["f", "(", source.dropFirst(2).dropLast(5).description, ")", "{", "}"])
    let literal = try SwiftScanner.scan(Array(source.utf8))[2]
    #expect(literal.literalValue == nil)
    #expect(try tokens(##"#"\(x) \#(y)"#"##).count == 1)
    #expect(scanError(#""a \(b"#)?.reason == "an unterminated string interpolation")
  }

  @Test func readsRegexLiteralsAsTheSwift6ParserDoes() throws {
    #expect(try tokens("let r = /a{/").map(\.1) == [.word, .word, .symbol, .regex])
    #expect(try tokens("x = a / b / c").map(\.1).filter { $0 == .regex }.isEmpty)
    #expect(try tokens("f(/ a/)").map(\.1).filter { $0 == .regex }.isEmpty)
    #expect(try tokens("(x / y) / (z)").map(\.1).filter { $0 == .regex }.isEmpty)
    #expect(try tokens("#/a}/b/# #\n").map(\.1) == [.regex, .punctuation])
    #expect(try tokens("##/\n  } /#\n/##").map(\.1) == [.regex])
    #expect(scanError("#/a")?.reason == "an unterminated regex literal")
  }

  @Test func readsDirectivesBackticksAttributesAndNumbers() throws {
    let scanned = try tokens("#if DEBUG\n@MainActor `default`: 0x1p-3 1_000.5e+2 $0\n#endif")
    #expect(
      scanned.map(\.0) == [
        "#if", "DEBUG", "@MainActor", "`default`", ":", "0x1p-3", "1_000.5e+2", "$0", "#endif",
      ]
    )
    #expect(
      scanned.map(\.1) == [
        .pound, .word, .attribute, .word, .punctuation, .number, .number, .word, .pound,
      ]
    )
  }

  @Test func matchesBracketsAndRefusesTheUnmatched() throws {
    let scanned = try SwiftScanner.scan(Array("f(a[{ }])".utf8))
    #expect(scanned[1].partner == 7)
    #expect(scanned[3].partner == 6)
    #expect(scanned[4].partner == 5)
    #expect(scanError("f(a]")?.reason == "an unmatched bracket")
    #expect(scanError("f(a")?.offset == 1)
  }

  @Test(arguments: [
    "\"a", "\"\"\"a\"\"\"", "\"\"\"\n  a\n b\n  \"\"\"", #""\q""#, "`a\nb`", "\"\"\"\n  a\"\"\"",
  ])
  func refusesWhatIsNotSwift(source: String) {
    #expect(scanError(source) != nil)
  }

  // MARK: - The call reader

  @Test func readsACallsArgumentsAndTrailingClosures() throws {
    let source = "x.f(a: 1, { \"one\" }) { \"two\" } b: { 3 }\n"
    let call = try #require(ParsedSource(source).call(line: 1, column: 4))
    #expect(call.callee == "x.f")
    #expect(call.arguments.count == 2)
    #expect(call.arguments[0].closure == nil)
    #expect(call.arguments[1].closure?.literalText == "one")
    #expect(call.trailingClosure?.literalText == "two")
    #expect(call.additionalTrailingClosures.map(\.label) == ["b"])
    #expect(call.additionalTrailingClosures.first?.closure.literalText == nil)
    #expect(call.end == source.utf8.count - 1)
  }

  @Test(arguments: [
    ("if f(x) {\n}\n", 5),
    ("case .a(let x):\n  break\n", 8),
    ("for x in f {\n}\n", 12),
    ("func f() {\n}\n", 7),
    ("var x: Int {\n  get { 1 }\n}\n", 12),
    ("#expect(x)\n", 8),
    ("f(\n#if A\n  a\n#endif\n)\n", 2),
    ("#sourceLocation(file: \"a\", line: 1)\nf(x)\n", 2),
  ])
  func refusesWhatItCannotPlaceWithCertainty(source: String, column: Int) {
    let line = source.hasPrefix("#sourceLocation") ? 2 : 1
    #expect(ParsedSource(source).call(line: line, column: column) == nil)
  }

  @Test func readsACallInAnAssignmentOrAClosure() {
    #expect(ParsedSource("let x = f { }\n").call(line: 1, column: 11) != nil)
    #expect(ParsedSource("f(x)\n{ }\n").call(line: 1, column: 2)?.trailingClosure != nil)
    #expect(ParsedSource("_ = \"a\".f(1)\n").call(line: 1, column: 10)?.callee == "\"a\".f")
    #expect(ParsedSource("x = FileManager.default.f(1)\n").call(line: 1, column: 26) != nil)
    #expect(ParsedSource("let macro = try M(node: x)\n").call(line: 1, column: 18) != nil)
    #expect(ParsedSource("var get = M(for: .seconds(1))\n").call(line: 1, column: 12) != nil)
    #expect(ParsedSource("var get = M(for: .seconds(1))\n").call(line: 1, column: 26) != nil)
    #expect(ParsedSource("switch x {\ncase 1:\n  f(1) { }\n}\n").call(line: 3, column: 4) != nil)
    #expect(ParsedSource("if x {\n  f(1) { }\n}\n").call(line: 2, column: 4) != nil)
    #expect(ParsedSource("g { x in f { } }\n").call(line: 1, column: 12) != nil)
    #expect(ParsedSource("a\n  .b<Int>(1)\n").call(line: 2, column: 10)?.callee == "a\n  .b<Int>")
  }

  @Test func aBraceInAStringOrACommentIsNotTheClosuresEnd() throws {
    let input = """
      f {
        assertInlineSnapshot(of: "}", as: .lines) { // }
          #\"\"\"
          }\\(x) /* { */
          \"\"\"#
        }
      }

      """
    let output = try rewriteInlineSnapshots(
      in: input,
      recordings: [recording(in: input, expected: "}\\(x) /* { */", actual: "{")]
    )
    #expect(
      output == """
        f {
          assertInlineSnapshot(of: "}", as: .lines) {
            \"\"\"
            {
            \"\"\"
          }
        }

        """
    )
  }

  @Test func aFileThatDoesNotScanNamesTheLineOfTheProblem() {
    let error = rewriteError { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(
        in: "f {\n  assertInlineSnapshot(of: 1, as: .description)\n  let s = \"a\n}\n",
        recordings: [
          InlineSnapshotRecording(
            line: 2,
            column: 23,
            syntaxDescriptor: .init(),
            expected: nil,
            actual: "1"
          )
        ]
      )
    }
    #expect(error == .unparsable(line: 3))
  }
}
