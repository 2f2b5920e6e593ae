import Testing

@testable import SnapshotTesting

@Suite struct RedactionSelectorTests {
  @Test func parsesEveryForm() throws {
    #expect(try RedactionSelector.parse("id").components == [.key("id")])
    #expect(
      try RedactionSelector.parse("a.b.c").components == [.key("a"), .key("b"), .key("c")]
    )
    #expect(try RedactionSelector.parse("items[0]").components == [.key("items"), .index(0)])
    #expect(
      try RedactionSelector.parse("items[*].createdAt").components
        == [.key("items"), .anyIndex, .key("createdAt")]
    )
    #expect(try RedactionSelector.parse("**.key").components == [.anyDepth, .key("key")])
    #expect(
      try RedactionSelector.parse("[*][12].a-b_c$").components
        == [.anyIndex, .index(12), .key("a-b_c$")]
    )
    #expect(try RedactionSelector.parse("a.**[1]").components == [.key("a"), .anyDepth, .index(1)])
    #expect(try RedactionSelector.parse("clé.日本").components == [.key("clé"), .key("日本")])
    #expect(
      try RedactionSelector.parse(#"headers["x.id"][0]["a \"b\" \\ [*]"]"#).components
        == [.key("headers"), .key("x.id"), .index(0), .key(#"a "b" \ [*]"#)]
    )
    #expect(
      try RedactionSelector.parse(#"[""].**["*"]"#).components == [.key(""), .anyDepth, .key("*")]
    )
  }

  /// Found by fuzzing (Fuzz/FuzzRedactionSelector): the parser read characters, and a combining
  /// mark after `.`, `[` or `"` (or a prepended one before them) forms one character with it, so
  /// that syntax was read as part of a key and such keys could not be written, even quoted.
  @Test func syntaxNextToACombiningMarkIsStillSyntax() throws {
    #expect(try RedactionSelector.parse("[\"\u{301}x\"]").components == [.key("\u{301}x")])
    #expect(try RedactionSelector.parse("[\"[0]\u{600}\"]").components == [.key("[0]\u{600}")])
    #expect(
      try RedactionSelector.parse(#"["a\""# + "\u{8E3}\"]").components == [.key("a\"\u{8E3}")]
    )
    #expect(
      try RedactionSelector.parse("a.\u{301}b").components == [.key("a"), .key("\u{301}b")]
    )
  }

  /// Each bad selector, the 1-based character where the error is, and what was expected there.
  static let errors: [(selector: String, message: String)] = [
    (
      "items[*.id",
      #"The redaction selector "items[*.id" has an error at character 8: expected "]", found ".""#
    ),
    ("", #"The redaction selector "" has an error at character 1: expected a key, found the end"#),
    ("a..b", #"has an error at character 3: expected a key, found ".""#),
    ("a.", #"has an error at character 3: expected a key, found the end of the selector"#),
    (".a", #"has an error at character 1: expected a key, found ".""#),
    ("items[]", #"has an error at character 7: expected an index, "*" or a quoted key, found "]""#),
    (
      "items[x]", #"has an error at character 7: expected an index, "*" or a quoted key, found "x""#
    ),
    (
      "items[-1]",
      #"has an error at character 7: expected an index, "*" or a quoted key, found "-""#
    ),
    ("items[0", #"has an error at character 8: expected "]", found the end of the selector"#),
    ("items[99999999999999999999]", "at character 7: expected an index small enough for an Int"),
    ("items*", #"at character 6: expected ".", "[" or the end of the selector, found "*""#),
    ("*.id", #"at character 2: expected "**" (a single "*" selects indices: "[*]"), found ".""#),
    ("**", #"at character 3: expected ".key" or "[index]" after "**", found the end"#),
    ("a.**", #"at character 5: expected ".key" or "[index]" after "**", found the end"#),
    ("***", #"at character 3: expected ".", "[" or the end of the selector, found "*""#),
    ("a b", #"at character 2: expected ".", "[" or the end of the selector, found " ""#),
    (#"a."b""#, #"at character 3: expected a key, found """#),
    (#"a["b"#, "at character 5: expected a quote to close the key, found the end of the selector"),
    (#"a["b"c]"#, #"at character 6: expected "]", found "c""#),
    // Positions count characters, not scalars: "e" and its accent are one character, and so are
    // "[" and the accent after it.
    ("e\u{301} b", "at character 2: expected \".\", \"[\" or the end of the selector, found \" \""),
    ("a[\u{301}]", "at character 2: expected an index, \"*\" or a quoted key, found \"\u{301}\""),
    (
      #"a["b\n"]"#,
      #"at character 6: expected a quote or a backslash after the backslash, found "n""#
    ),
  ]

  @Test(arguments: errors)
  func aSyntaxErrorNamesThePosition(_ selector: String, _ message: String) {
    #expect {
      try RedactionSelector.parse(selector)
    } throws: { error in
      let error = error as? RedactionSelectorError
      return error?.selector == selector
        && error?.description.contains(message) == true
        && error?.description.hasSuffix(".") == true
    }
  }
}
