import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// `.html`: the canonical form, element by element, and the tree builder's rules it relies on.
@Suite struct HTMLTests {
  func canonical(_ html: String) -> String {
    MarkupSnapshotTestingTests.canonical(html, as: .html)
  }

  @Test func aOneLinePageBecomesOneElementPerLine() {
    let page = """
      <!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Home</title>\
      <link rel='stylesheet' href="/main.css"></head><body class="home page"><h1>Hello, \
      <em>world</em>!</h1><ul><li><a href="/a">A</a></li><li>B</li></ul><br/><img src=x.png alt=""></body></html>
      """
    #expect(
      canonical(page) == """
        <!DOCTYPE html>
        <html lang="en">
          <head>
            <meta charset="utf-8">
            <title>Home</title>
            <link rel="stylesheet" href="/main.css">
          </head>
          <body class="home page">
            <h1>
              Hello,
              <em>world</em>
              !
            </h1>
            <ul>
              <li>
                <a href="/a">A</a>
              </li>
              <li>B</li>
            </ul>
            <br>
            <img src="x.png" alt="">
          </body>
        </html>

        """
    )
  }

  /// Found by the html5lib corpus (`tests16.dat`, `scriptdata01.dat`): the end tag of a raw text
  /// element is read as a tag, quoted `>` included, and `</script` at the very end is text.
  @Test func aRawTextEndTagIsReadAsATag() {
    #expect(canonical("<script>a</script foo=\">\" dd>b") == "<script>a</script>\nb\n")
    #expect(canonical("<script>a</SCRIPT") == "<script>a</SCRIPT</script>\n")
    #expect(canonical("<style>a</style ") == "<style>a</style>\n")
  }

  /// Found by the html5lib corpus (`tests3.dat`): the newline dropped after `<pre>` may be
  /// written as a character reference.
  /// Attribute names are compared, and a `"` in a value escaped, by code point as a browser
  /// does, not as Swift `Character`s, which canonical equivalence and combining marks change.
  @Test func attributesAreReadByCodePoint() {
    // `é` precomposed and `e` with a combining acute accent are two names.
    #expect(canonical("<p \u{E9}=1 e\u{301}=2>") == "<p \u{E9}=\"1\" e\u{301}=\"2\"></p>\n")
    #expect(canonical("<p \u{E9}=1 \u{E9}=2>") == "<p \u{E9}=\"1\"></p>\n")
    // A `"` that a combining mark follows is still a quote.
    #expect(canonical("<p title='a\"\u{301}'>") == "<p title=\"a&quot;\u{301}\"></p>\n")
  }

  @Test func aPreDropsALeadingNewlineWrittenAsAReference() {
    #expect(canonical("<pre>&#x0a;&#x0a;A</pre>") == "<pre>\n&#x0a;A</pre>\n")
    #expect(canonical("<pre>&#10;B</pre>") == "<pre>\nB</pre>\n")
    #expect(canonical("<textarea>&#x0A;C</textarea>") == "<textarea>\nC</textarea>\n")
    #expect(canonical("<pre>&#100;D</pre>") == "<pre>\n&#100;D</pre>\n")
  }

  /// Found by the html5lib corpus (`blocks.dat`): `</dialog>` closes the `p` inside it.
  @Test func aDialogEndTagClosesWhatIsOpenInside() {
    #expect(canonical("<dialog><p>foo</dialog>bar") == "<dialog>\n  <p>foo</p>\n</dialog>\nbar\n")
  }

  /// Found by the html5lib differential (`tests2.dat#5` and fuzzed pages): outside a `frameset`
  /// a browser drops a `frame` tag (in the body, in the head, where it begins the body, and in a
  /// `template`), on both paths, the tree's and the direct printer's.
  @Test(arguments: [
    ("<frame>test", "test\n"),
    ("<div><frame>x</div>", "<div>x</div>\n"),
    ("<head><frame>x", "<head></head>\nx\n"),
    ("<template><frame></template>", "<template></template>\n"),
    ("<frameset><frame></frameset>", "<frameset>\n  <frame>\n</frameset>\n"),
    ("<svg><frame/></svg>", "<svg>\n  <frame/>\n</svg>\n"),
  ])
  func aFrameOutsideAFramesetIsDropped(html: String, text: String) throws {
    #expect(canonical(html) == text)
    let tree = CanonicalPrinter(flavor: .html).print(try HTMLReader.read(Array(html.utf8)))
    #expect(tree == text)
  }

  /// Where the reader follows the current standard and Chromium, and html5lib 1.1 an older
  /// revision; `scripts/html5lib-differential.py` counts these under their names (see
  /// Documentation/Reliability.md). Each tree here is Chromium's.
  @Test func theIntendedDifferencesFromHTML5Lib() {
    // `<dialog>` and `<search>` end an open `p`; in html5lib 1.1 they go inside it.
    #expect(
      canonical("<!doctype html><p>foo<dialog>bar<p>baz")
        == "<!doctype html>\n<p>foo</p>\n<dialog>\n  bar\n  <p>baz</p>\n</dialog>\n"
    )
    #expect(canonical("<p>a<search>b</search>") == "<p>a</p>\n<search>b</search>\n")
    // The adoption agency's inner loop walks up to the formatting element, and the entries it
    // passes after the third leave the list (`b` here); html5lib 1.1's stops after three steps
    // and leaves `b` and `g` where they were.
    #expect(
      canonical("<a><b><g><em><s><div><a></em>") == """
        <a>
          <b>
            <g>
              <em>
                <s></s>
              </em>
            </g>
          </b>
        </a>
        <em>
          <s></s>
        </em>
        <s>
          <div>
            <em>
              <a></a>
              <a></a>
            </em>
          </div>
        </s>

        """
    )
    #expect(
      canonical("<a><t><f><l><r><h1><a></h1>x") == """
        <a>
          <t>
            <f>
              <l>
                <r></r>
              </l>
            </f>
          </t>
        </a>
        <h1>
          <a></a>
          <a></a>
        </h1>
        <a>x</a>

        """
    )
    // `noscript` holds text, as with scripting on (Chromium, a user's page); html5lib parses
    // with scripting off unless told, and the differential tells it.
    #expect(
      canonical("<head><noscript><meta><!--x--></noscript>")
        == "<head>\n  <noscript><meta><!--x--></noscript>\n</head>\n"
    )
  }

  @Test func impliedEndTagsCloseWhatABrowserCloses() {
    let html = """
      <p>one<p>two<div>block</div><ul><li>a<li>b</ul><dl><dt>t<dd>d<dt>u</dl>\
      <select><option>x<option>y</select><table><tr><td>1<td>2<tr><th>3</table>
      """
    #expect(
      canonical(html) == """
        <p>one</p>
        <p>two</p>
        <div>block</div>
        <ul>
          <li>a</li>
          <li>b</li>
        </ul>
        <dl>
          <dt>t</dt>
          <dd>d</dd>
          <dt>u</dt>
        </dl>
        <select>
          <option>x</option>
          <option>y</option>
        </select>
        <table>
          <tr>
            <td>1</td>
            <td>2</td>
          </tr>
          <tr>
            <th>3</th>
          </tr>
        </table>

        """
    )
  }

  @Test func aStrayEndTagOfAParagraphOpensAnEmptyOneAndOthersAreDropped() {
    #expect(canonical("<div>x</p></span></div>") == "<div>\n  x\n  <p></p>\n</div>\n")
    #expect(canonical("<body></p>") == "<body>\n  <p></p>\n</body>\n")
  }

  /// The standard's "Noah's Ark" clause (html5lib's `tests23.dat`): the list of active
  /// formatting elements keeps at most three entries of one name and attributes after the last
  /// marker, so four identical `b`s cut short by `</p>` reopen as three. A `b` with other
  /// attributes is another entry; attributes in another order are the same.
  @Test(arguments: [
    ("<p><b><b><b><b>x</p>y", 3),
    ("<p><b class=x><b><b><b>x</p>y", 4),
    ("<p><b a=1 c=2><b c=2 a=1><b a=1 c=2><b c=2 a=1>x</p>y", 3),
  ])
  func atMostThreeIdenticalFormattingElementsAreReopened(html: String, reopened: Int) throws {
    let text = canonical(html)
    let afterParagraph = try #require(text.components(separatedBy: "</p>\n").last)
    #expect(afterParagraph.components(separatedBy: "<b").count - 1 == reopened, "\(text)")
    #expect(afterParagraph.contains("y</b>"), "\(text)")
    #expect(canonical(text) == text)
  }

  /// Without the limit of three identical entries, each paragraph reopened every `b` left open
  /// in the ones before it: *n* paragraphs `<p><b>x</p>` printed *n*²/2 elements. With it, at
  /// most four `b`s (three reopened, one new) stand in each.
  @Test func formattingElementsLeftOpenInEveryParagraphGrowTheTextLinearly() {
    let html = String(repeating: "<p><b>x</p>", count: 400)
    let text = canonical(html)
    #expect(text.components(separatedBy: "<b>").count - 1 == 1 + 2 + 3 + 4 * 397)
    #expect(text.utf8.count <= 16 * html.utf8.count)
  }

  /// Found by the html5lib corpus (`tests19.dat`, `tests1.dat`): before the body, the browser
  /// ignores a stray `</p>`.
  @Test func aStrayEndTagOfAParagraphBeforeTheBodyIsDropped() {
    #expect(canonical("<html></p><!--x-->") == "<html>\n  <!--x-->\n</html>\n")
    #expect(canonical("<head></p><meta><p>") == "<head>\n  <meta>\n</head>\n<p></p>\n")
    // In a template, and after SVG or MathML began the body, it opens an empty `p` as in the body.
    #expect(canonical("<template></p></template>") == "<template>\n  <p></p>\n</template>\n")
    #expect(canonical("<svg></p>x") == "<svg/>\n<p></p>\nx\n")
  }

  @Test func rawTextIsKeptAsWritten() {
    let html = """
      <script>if (a < b && c) { x("</div>") }</script><style>
        p > a { color: red }
      </style><textarea>
        <b>not bold</b></textarea><title>A &amp; <b></title>
      """
    #expect(
      canonical(html) == """
        <script>if (a < b && c) { x("</div>") }</script>
        <style>
          p > a { color: red }
        </style>
        <textarea>
          <b>not bold</b></textarea>
        <title>A &amp; <b></title>

        """
    )
  }

  @Test func preKeepsItsContentAndItsLeadingNewline() {
    #expect(
      canonical("<pre>\n\n  indented\n<b>bold</b>  </pre>")
        == "<pre>\n\n  indented\n<b>bold</b>  </pre>\n"
    )
    #expect(canonical("<pre>x</pre>") == "<pre>\nx</pre>\n")
  }

  @Test func namesAreLowercasedOutsideForeignContentWhoseSelfClosingTagsCount() {
    let html =
      #"<DIV ID=a><svg viewBox="0 0 1 1"><path d="M0"/><foreignObject><p>x</p></foreignObject></svg></DIV>"#
    #expect(
      canonical(html) == """
        <div id="a">
          <svg viewBox="0 0 1 1">
            <path d="M0"/>
            <foreignObject>
              <p>x</p>
            </foreignObject>
          </svg>
        </div>

        """
    )
  }

  @Test func commentsBogusCommentsAndDuplicateAttributes() {
    #expect(
      canonical("<!-- a --><?php x ?><!x><p a=1 A=2 b>t</p><!-->")
        == "<!-- a -->\n<!--?php x ?-->\n<!--x-->\n<p a=\"1\" b>t</p>\n<!---->\n"
    )
  }

  @Test func theSameDOMWrittenDifferentlyGivesTheSameText() {
    let a = "<UL>\n  <LI>One\n  <LI>Two\n</UL>"
    let b = "<ul><li>One</li><li>Two</li></ul>"
    #expect(canonical(a) == canonical(b))
  }

  @Test func dataIsReadAsUTF8WithReplacementCharacters() {
    let data = Data(Array("<p>a".utf8) + [0xFF] + Array("b</p>".utf8))
    #expect(snapshotText(data, as: .html).text == "<p>a\u{FFFD}b</p>\n")
  }

  @Test func theReferenceIsADotHTMLFile() throws {
    try withTemporaryFolder { folder in
      _ = verifySnapshot(
        of: "<p>x",
        as: .html,
        record: .missing,
        snapshotDirectory: folder.path,
        testName: "page"
      )
      #expect(files(under: folder) == ["page.1.html"])
      let written = try String(
        contentsOf: folder.appendingPathComponent("page.1.html"),
        encoding: .utf8
      )
      #expect(written == "<p>x</p>\n")
    }
  }

  @Test func aChangedPageFailsWithADiffNamingTheChangedElement() {
    withTemporaryFolder { folder in
      let old = "<ul><li>One</li><li>Two</li><li>Three</li></ul>"
      _ = verifySnapshot(
        of: old,
        as: .html,
        named: "items",
        record: .missing,
        snapshotDirectory: folder.path,
        testName: "list"
      )
      let message = verifySnapshot(
        of: old.replacingOccurrences(of: "Two", with: "2"),
        as: .html,
        named: "items",
        record: .never,
        snapshotDirectory: folder.path,
        testName: "list"
      )
      #expect(message?.contains("\u{2212}  <li>Two</li>\n+  <li>2</li>") == true)
    }
  }
}

/// The XCTest entry point, as an XCTest user calls it.
import XCTest

final class HTMLXCTests: XCTestCase {
  func testAPageMatchesItsCanonicalReference() {
    withTemporaryFolder { folder in
      XCTAssertNotNil(
        verifySnapshot(
          of: Data("<p>x".utf8),
          as: .html,
          named: "page",
          record: .missing,
          snapshotDirectory: folder.path,
          testName: "xc"
        )
      )
      XCTAssertNil(
        verifySnapshot(
          of: Data("<P>x</P>".utf8),
          as: .html,
          named: "page",
          record: .never,
          snapshotDirectory: folder.path,
          testName: "xc"
        )
      )
    }
  }
}
