import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// Redaction by selector in `.html` and `.xml`, and its failures.
@Suite struct MarkupRedactionTests {
  static let form = """
    <form action=/login><input type=hidden name=csrf_token value=8f3a9c><input name=user>\
    <script nonce="r4nd0m">go()</script><p class="meta note">Saved <time>12:04</time></p></form>
    """

  @Test func attributesAndContentAreReplaced() {
    let (text, failure) = snapshotText(
      Self.form,
      as: .html(redacting: [
        .attribute("value", of: "input[name=csrf_token]"),
        .attribute("nonce", of: "script"),
        .text(of: "p.meta > time"),
      ])
    )
    #expect(failure == nil)
    #expect(
      text == """
        <form action="/login">
          <input type="hidden" name="csrf_token" value="[redacted]">
          <input name="user">
          <script nonce="[redacted]">go()</script>
          <p class="meta note">
            Saved
            <time>[redacted]</time>
          </p>
        </form>

        """
    )
  }

  @Test(arguments: [
    ("form input", 2), ("form > input", 2), ("#x", 0), ("[name^=csrf]", 1), ("[name$=token]", 1),
    ("[name*=rf_t]", 1), (".note", 1), ("p.meta.note", 1), ("*[type='hidden']", 1),
    ("INPUT", 2), ("p > input", 0), ("form time", 1),
  ])
  func selectorsMatchAsInCSS(selector: String, count: Int) throws {
    let document = try HTMLReader.read(Array(Self.form.utf8))
    let parsed = try MarkupSelector(parsing: selector)
    var matched = 0
    var ancestors: [MarkupElement] = []
    var pending: [(MarkupNode, Int)] = document.nodes.reversed().map { ($0, 0) }
    while let (node, depth) = pending.popLast() {
      guard case .element(let element) = node else { continue }
      ancestors.removeSubrange(depth...)
      if parsed.matches(element, ancestors: ancestors[...], caseSensitive: false) { matched += 1 }
      ancestors.append(element)
      pending += element.children.reversed().map { ($0, depth + 1) }
    }
    #expect(matched == count)
  }

  @Test func xmlSelectorsUsePipeForAPrefixAndCompareExactly() {
    let feed = """
      <rss xmlns:atom="http://www.w3.org/2005/Atom"><channel><atom:link href="x"/>\
      <lastBuildDate>Tue</lastBuildDate></channel></rss>
      """
    let (text, failure) = snapshotText(
      feed,
      as: .xml(redacting: [
        .attribute("href", of: "atom|link"), .text(of: "channel > lastBuildDate"),
      ])
    )
    #expect(failure == nil)
    #expect(text.contains(#"<atom:link href="[redacted]"/>"#))
    #expect(text.contains("<lastBuildDate>[redacted]</lastBuildDate>"))
    #expect(
      snapshotText(feed, as: .xml(redacting: [.text(of: "LASTBUILDDATE")])).failure
        == "The redaction selector \"LASTBUILDDATE\" matched nothing in the XML."
    )
  }

  @Test func aSelectorThatMatchesNothingFailsNamingIt() {
    #expect(
      snapshotText(Self.form, as: .html(redacting: [.text(of: "main")])).failure
        == "The redaction selector \"main\" matched nothing in the HTML."
    )
  }

  @Test func anAttributeNoMatchedElementHasFailsNamingBoth() {
    #expect(
      snapshotText(Self.form, as: .html(redacting: [.attribute("nonce", of: "input")])).failure
        == "No element that \"input\" matches in the HTML has the attribute \"nonce\"."
    )
  }

  @Test(arguments: [
    ("input[name", "expected \"]\" at character 11"),
    ("", "the selector is empty at character 1"),
    ("a >", "expected a selector after \">\" at character 4"),
    ("a,b", "unexpected \",\" at character 2"),
    ("[x!=y]", "expected \"]\", \"=\", \"~=\", \"^=\", \"$=\" or \"*=\" at character 3"),
    ("#", "expected a name after \"#\" at character 2"),
    ("[a='b]", "the quoted value is never closed at character 7"),
  ])
  func aSelectorWithASyntaxErrorFailsNamingItAndWhere(selector: String, expected: String) {
    #expect(
      snapshotText("<p>x</p>", as: .html(redacting: [.text(of: selector)])).failure
        == "The selector \"\(selector)\" is not valid: \(expected)."
    )
  }

  @Test func scrubbersRunOnTheCanonicalText() {
    let page = #"<p data-id="3F2504E0-4F89-11D3-9A0C-0305E82C3301">Order</p>"#
    let (text, failure) = snapshotText(page, as: .html.scrubbing(.uuids))
    #expect(failure == nil)
    #expect(text == "<p data-id=\"UUID_1\">Order</p>\n")
  }

  @Test func aRedactedSnapshotFailsWithoutRecording() {
    withTemporaryFolder { folder in
      let message = verifySnapshot(
        of: Self.form,
        as: .html(redacting: [.text(of: "main")]),
        record: .all,
        snapshotDirectory: folder.path,
        testName: "redacted"
      )
      #expect(message?.contains("matched nothing") == true)
      #expect(files(under: folder) == [])
    }
  }
}
