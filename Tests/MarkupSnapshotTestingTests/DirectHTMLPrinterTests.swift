import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// The direct printer (the fast path of `.html`) gives the tree reader's canonical text byte for
/// byte on every page it accepts, and accepts the realistic ones.
@Suite struct DirectHTMLPrinterTests {
  /// The canonical text through the tree: ``HTMLReader`` then ``CanonicalPrinter``.
  static func treeText(_ html: String) -> String {
    CanonicalPrinter(flavor: .html).print(try! HTMLReader.read(Array(html.utf8)))
  }

  static func directText(_ html: String) -> String? {
    DirectHTMLPrinter.canonicalText(Array(html.utf8))
  }

  /// How many of `pages` the direct printer accepted; records every page where it gave another
  /// text than the tree.
  static func compare(_ pages: [String], corpus: String) -> Int {
    var accepted = 0
    var differing: [String] = []
    for page in pages {
      guard let direct = directText(page) else { continue }
      accepted += 1
      if direct != treeText(page) { differing.append(page) }
    }
    #expect(
      differing.isEmpty,
      """
      \(corpus): \(differing.count) pages print differently, first:
      \(differing.first ?? "")
      direct:
      \(differing.first.flatMap(directText) ?? "")
      tree:
      \(differing.first.map(treeText) ?? "")
      """
    )
    print("\(corpus): the direct printer took \(accepted) of \(pages.count) pages")
    return accepted
  }

  /// A one-line page like the benchmark's (Plot's output): a table of rows with links.
  static func ordersPage(rows: Int) -> String {
    var html =
      #"<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"/><title>Orders</title>"#
      + #"<link rel="stylesheet" href="/styles.css"/></head><body><table class="orders"><tbody>"#
    for row in 0..<rows {
      let status = ["paid", "shipped", "pending"][row % 3]
      html +=
        #"<tr id="order-\#(row)"><td class="number">\#(row)</td><td><a href="/orders/\#(row)"#
        + #"?tab=lines&amp;sort=sku">Order \#(row)</a></td><td class="status \#(status)">"#
        + #"\#(status)</td><td>\#(row * 7 % 1000).\#(row % 100) €</td></tr>"#
    }
    return html + "</tbody></table></body></html>"
  }

  @Test func theHTML5LibCorpusPrintsTheSame() throws {
    let cases = try HTML5LibCorpusTests.files.flatMap {
      try HTML5LibCase.read(HTML5LibCorpusTests.folder.appendingPathComponent($0))
    }
    let accepted = Self.compare(cases.map(\.data), corpus: "html5lib")
    // Its cases are mostly the hard parts of the standard; still, more than a third are simple.
    #expect(accepted > 500)
  }

  @Test func theFixturePagesPrintTheSameAndTakeTheDirectPath() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("__Fixtures__/pages")
    let pages = try ChromiumRoundTripTests.fixturePages.map {
      try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
    }
    #expect(pages.count == 6)
    #expect(Self.compare(pages, corpus: "fixture pages") == pages.count)
  }

  @Test func theTreeConstructionCasesPrintTheSame() {
    let cases = ChromiumRoundTripTests.treeConstructionCases
    #expect(Self.compare(cases, corpus: "tree-construction cases") > cases.count / 2)
  }

  @Test func randomTokenSoupsPrintTheSame() {
    var generator = RandomHTMLTests.Generator(state: 4_035)
    let soups = (0..<5_000).map { _ in RandomHTMLTests.soup(&generator) }
    #expect(Self.compare(soups, corpus: "random token soups") > 1_000)
  }

  /// Pieces for what the direct printer does itself and `RandomHTMLTests`' soups do not try:
  /// quoting and case of attributes, unlisted names, doctypes, newlines after `pre`, SVG.
  static let richerPieces = [
    "<P CLASS=A>", "</P>", "<a href='x\"y'>", "<A HREF=\"u\" href=v>", "</A>", "<b title=>",
    "</B>", "<span data-x=a\"b>", "</span>", "<custom-el>", "</custom-el>", "<x:y>", "</x:y>",
    "<!DOCTYPE html>", "<!doctype html5>", "<!DOCTYPE>", "<!---->", "<!-- c --!>", "<? pi ?>",
    "</ bogus>", "</>", "<pre>", "<listing>", "&#10;", "&#x0A;x", "\n", "\r\n", "  ", "\t",
    "text", "é", "<dl>", "<dt>", "<dd>", "</dl>", "<ol>", "<li>", "</li>", "</ol>",
    "<h3>", "</h3>", "<h4>", "<table>", "<tbody>", "<thead>", "<tfoot>", "<tr>", "<th>", "<td>",
    "</tr>", "</tbody>", "</table>", "<caption>", "<colgroup>", "<col>", "<svg viewBox='0 0 1 1'>",
    "<G>", "</g>", "<path d=M0/>", "<circle r=1 />", "</svg>", "<math>", "<mn>", "</math>",
    "<textarea>", "</textarea>", "<title>", "</title>", "<script>", "</script>", "<style>",
    "</style>", "<img src=x>", "<br/>", "</br>", "<hr>", "<input value='a'>", "<head>", "</head>",
    "<body>", "</body>", "<html lang=en>", "</html>", "<meta charset=utf-8>", "<div>", "</div>",
    "<button>", "</button>", "<option>", "<optgroup>", "<select>", "</select>", "<em>", "</em>",
    "<nobr>", "</nobr>", "<p>", "</p>", "<template>", "</template>", "<dialog>", "</dialog>",
    "<object>", "</object>", "<", ">", "=", "\"", "'", "&amp;",
  ]

  @Test func richerTokenSoupsPrintTheSame() {
    var generator = RandomHTMLTests.Generator(state: 135)
    let soups = (0..<5_000).map { _ in
      let count = Int.random(in: 1...60, using: &generator)
      return (0..<count).map { _ in Self.richerPieces.randomElement(using: &generator)! }
        .joined()
    }
    #expect(Self.compare(soups, corpus: "richer token soups") > 1_000)
  }

  @Test func theBenchmarkPageTakesTheDirectPath() {
    let page = Self.ordersPage(rows: 300)
    #expect(Self.compare([page], corpus: "orders page") == 1)
  }

  /// A start tag written as the printer writes it is copied as it is; one that differs in any way
  /// the printer normalises (case, spacing, quoting, `/`, a duplicate) is written afresh. Each at
  /// every offset modulo 8, as attribute names are checked for capitals a word at a time.
  @Test func startTagsAreCopiedOnlyWhenWrittenAsPrinted() {
    let tags = [
      #"<span class="x" id="y">"#, #"<SPAN class="x">"#, #"<span Class="x">"#,
      #"<span data-long-Name="x">"#, #"<span data-long-name="x" ID="y">"#, "<span aB>",
      #"<span  class="x">"#, "<span\nclass=\"x\">", #"<span class ="x">"#,
      #"<span class= "x">"#, "<span class='x'>", "<span class=x>", #"<span class="x" >"#,
      #"<span class="x"/>"#, #"<span a="1" a="2">"#, #"<span a="1" A="2">"#, "<span a b>",
      "<span a  b>", #"<span a="1"b="2">"#, "<span a\nb>", #"<span a="">"#, "<span a>",
      #"<span a="x'y">"#, #"<span a='x"y'>"#, "<span =a>", "<span\t>", "<span/>", "<span>",
    ]
    var pages: [String] = []
    for tag in tags {
      for padding in 0..<8 {
        pages.append("<div>" + String(repeating: "x", count: padding) + "</div>" + tag + "1</span>")
      }
    }
    #expect(Self.compare(pages, corpus: "start tags") == pages.count)
    #expect(Self.directText(#"<p a="1" b c="">x</p>"#) == "<p a=\"1\" b c=\"\">x</p>\n")
    #expect(Self.directText("<p A='1'  b\nc=\"\" >x</p>") == "<p a=\"1\" b c=\"\">x</p>\n")
    #expect(Self.directText("<p a=\"1\" b/>x</p>") == "<p a=\"1\" b>x</p>\n")
  }

  /// The end tag of the current element closes it without a lookup, except where the rules do
  /// more or less than that: `body` and `html` (ignored), a formatting element whose entry is not
  /// the last of its list, SVG; and is read as usual when it is not just `</name>` of up to seven
  /// bytes.
  @Test func endTagsOfTheCurrentElementCloseIt() {
    let bodies = [
      "<body>x</body>y", "<html><body>x</html>y", "<p><b>x</b>y</p>", "<p><a href=u>x</A>y",
      "<ul><li>x</LI><li>y</li></ul>", "<div>x</DIV >y", "<div>x</div\n>y", "<div>x</div a>y",
      "<div>x</div/>y", "<custom-el>x</custom-el>y", "<abcdefg>x</abcdefg>y",
      "<abcdefgh>x</abcdefgh>y", "<svg><g>x</g></svg>y", "<math><mi>x</mi></math>y",
      "<table><tr><td>1</TD><td>2</td></tr></table>", "<h1>x</h1>y<h2>z</h3>",
      "<p>x</p>y</p>", "<select><option>x</option></select>", "<pre>x</pre>y",
      "<template>x</template>y", "<head><title>t</title></head>x", "<span>x</spanx>y</span>",
      "<a>x<a>y</a>z", "<b>x<b>y</b>z</b>", "<em><td>x</em>y</td>",
      "<table><tr><td><b>x</b></td></tr></table>", "<nobr>x</nobr>y<nobr>z</NOBR>",
    ]
    var pages: [String] = []
    for body in bodies {
      for padding in 0..<8 {
        let comment = "<!--" + String(repeating: "x", count: padding) + "-->"
        pages.append(comment + body)
        pages.append(comment + body + comment)  // The shortcut reads a word: not at the end.
      }
    }
    #expect(Self.compare(pages, corpus: "end tags") == pages.count)
    // Where the tree moves elements (the adoption agency), the page goes to the tree reader.
    #expect(Self.compare(["<i><b>x</i>y</b><!---->"], corpus: "misnested") == 0)
    #expect(Self.directText("<div><p>x</P></div>") == "<div>\n  <p>x</p>\n</div>\n")
    #expect(Self.directText("<body>x</body>y<br>") == "<body>\n  xy\n  <br>\n</body>\n")
  }

  /// A leaf (a start tag, a text, its own end tag) is printed in one step; where the rules do
  /// more than join the text and close the element (whitespace alone, a table's structure,
  /// `head`, a newline after `pre` to drop, markup in the text, an end tag written otherwise, a
  /// formatting element to reopen), it goes through every rule: the text is the tree's either
  /// way, at every offset modulo 8 (the end tag is read as a word).
  @Test func leavesPrintInOneStepAsTheRulesPrintThem() {
    let bodies = [
      "<table><tr><td class=\"n\">1</td><th>2</TH><td> a \n\tb </td></tr></table>",
      "<ul><li>x</li><li>  </li><li></li></ul>", "<p><b>x</b> <a href=\"u\">t</a>y</p>",
      "<p><b>x</p><div>y</div>", "<p><b>x</p><i>y</i>", "<table><tr>x</tr></table>",
      "<table><caption>c</caption><tbody>x</tbody></table>", "<pre></pre><span>\nx</span>",
      "<head>x</head>", "<div>x</div >y", "<div>x</divx>y", "<div>a<b</div>", "<div>a < b</div>",
      "<h1>x</h1><dl><dt>t</dt><dd>d</dd></dl>", "<select><option>o</option></select>",
      "<template>x</template>", "<button>x</button>", "<nobr>x</nobr><nobr>y</nobr>",
      "<abcdefg>x</abcdefg><abcdefgh>y</abcdefgh>", "<svg><g>x</g></svg><span>x</span>",
      "<span>x</span>", "<a>x</a>", "<a>x<a>y</a>", "<body>x</body>", "<html>x</html>",
    ]
    var pages: [String] = []
    for body in bodies {
      for padding in 0..<8 {
        let comment = "<!--" + String(repeating: "x", count: padding) + "-->"
        pages.append(comment + body)
        pages.append(comment + body + comment)
      }
    }
    #expect(Self.compare(pages, corpus: "leaves") == pages.count - 32)
    // The text reopens the `b` that `</p>` closed: the tree's work, the page goes there.
    #expect(Self.directText("<p><b>x</p><div>y</div>") == nil)
    #expect(
      Self.directText(#"<tr><td class="n">1</td><td> a  b </td></tr><!---->"#)
        == "<tr>\n  <td class=\"n\">1</td>\n  <td>a b</td>\n</tr>\n<!---->\n"
    )
    #expect(
      Self.directText("<p><a href=\"u\">t</A><b>x</b></p><!---->")
        == "<p>\n  <a href=\"u\">t</a>\n  <b>x</b>\n</p>\n<!---->\n"
    )
  }

  /// Every token boundary at every offset modulo 8 (the printer scans words of eight bytes):
  /// tag names of up to eight bytes and longer, capitals, attribute names and values, text
  /// with multi-byte UTF-8 and whitespace, and a tag or `<` in the last seven bytes.
  @Test func tokensAtEveryOffsetPrintTheSame() {
    let bodies = [
      "<DIV class=\"a b\" ID='x'>é <Span>€ x</Span>\t😀</DIV>",
      "<table><TR><td>1</td><TD>a&amp;b</td></tr></table>",
      "<p title=\"caf\u{E9}\" data-x=y>x y\nz</p><img src=x alt='e\"'>",
      "<ul><li>One<li>Two</ul>x<b>y</b>",
      "<pre>\n a  b</pre><textarea>\nt</textarea><script>if (a<b) {}</script>",
      "<abcdefg>x</abcdefg><abcdefgh>y</abcdefgh><a\u{1}b>z</a\u{1}b>",
      "x <", "x <b", "x </b", "<b>x</b", "a&b<", "é<", "€ <i", "<i>x</i >",
    ]
    var pages: [String] = []
    for body in bodies {
      for padding in 0..<16 {
        pages.append(String(repeating: "x", count: padding) + body)
        pages.append("<p>" + String(repeating: "€", count: padding) + "</p>" + body)
      }
    }
    #expect(Self.compare(pages, corpus: "offsets") == pages.count)
  }

  @Test func nonASCIINamesAreRefusedAtEveryOffset() {
    for padding in 0..<16 {
      let text = String(repeating: "x", count: padding)
      let pages = [
        "<café>x</café>", "<div><abé>", "<p>x</pé>", "<abcdefghé>", "<p é=1>", "<p data-é>",
        "<p a=1 tét='x'>", "<p data-long-namé=\"1\">", "<p abcdefgé>",
      ]
      for page in pages {
        #expect(Self.directText(text + page) == nil, "\(text + page)")
      }
    }
  }

  /// The text is written into a buffer sized from the page; a text that outgrows it moves to a
  /// larger one and comes out the same, whatever the first size.
  @Test func aTextThatOutgrowsItsFirstStoragePrintsTheSame() throws {
    let deep = String(repeating: "<div>", count: 3_000) + "x"
    let direct = try #require(Self.directText(deep))
    #expect(direct.utf8.count > 2 * deep.utf8.count + 256)
    #expect(direct == Self.treeText(deep))
    let page = Self.ordersPage(rows: 50)
    for capacity in [0, 1, 15, 16, 100, 4_096] {
      let text = DirectHTMLPrinter.canonicalText(Array(page.utf8), capacity: capacity)
      #expect(text == Self.directText(page), "capacity \(capacity)")
    }
  }

  /// The text is copied into its `String` without being validated again: the `String` must still
  /// know what it holds, comparing by canonical equivalence and counting characters as one made
  /// from validated bytes does.
  @Test func theUncheckedTextIsAStringLikeAnyOther() throws {
    let page = "<p title='e\u{301}'>cafe\u{301} \u{1F600}"
    let decomposed = try #require(Self.directText(page))
    #expect(decomposed == "<p title=\"\u{E9}\">caf\u{E9} \u{1F600}</p>\n")
    #expect(decomposed.count == 24)
    #expect(decomposed.unicodeScalars.count == 26)
    #expect(Array(decomposed.utf8) == Array(Self.treeText(page).utf8))
    let ascii = try #require(Self.directText("<p>plain</p>"))
    #expect(ascii == "<p>plain</p>\n")
    #expect(ascii.utf8.count == ascii.count)
  }

  /// The rules' fixed name IDs are those the table gives: each constant its name's, the names
  /// first in their order, and no two listed names one ID.
  @Test func theRulesFixedNameIDsAreTheTables() {
    let constants = [
      ("html", RuleNameID.html), ("head", RuleNameID.head), ("body", RuleNameID.body),
      ("p", RuleNameID.paragraph), ("br", RuleNameID.br), ("table", RuleNameID.table),
      ("tbody", RuleNameID.tbody), ("thead", RuleNameID.thead), ("tfoot", RuleNameID.tfoot),
      ("tr", RuleNameID.tr), ("td", RuleNameID.td), ("th", RuleNameID.th),
      ("caption", RuleNameID.caption), ("colgroup", RuleNameID.colgroup), ("li", RuleNameID.li),
      ("dd", RuleNameID.dd), ("dt", RuleNameID.dt), ("a", RuleNameID.a),
      ("nobr", RuleNameID.nobr), ("button", RuleNameID.button), ("option", RuleNameID.option),
      ("optgroup", RuleNameID.optgroup), ("dialog", RuleNameID.dialog),
      ("template", RuleNameID.template), ("pre", RuleNameID.pre),
      ("listing", RuleNameID.listing), ("textarea", RuleNameID.textarea),
      ("image", RuleNameID.image), ("frame", RuleNameID.frame),
      ("frameset", RuleNameID.frameset),
    ]
    #expect(constants.map(\.0) == RuleNameID.names)
    for (offset, (name, id)) in constants.enumerated() {
      #expect(HTMLElementTraits(name: name).nameID == id, "\(name)")
      #expect(id == offset + 1, "\(name)")
    }
    let ids = HTMLElementTraits.listedNames.map { HTMLElementTraits(name: $0).nameID }
    #expect(Set(ids).count == ids.count)
    #expect(!ids.contains(0))
    #expect(ids.allSatisfy { $0 < HTMLElementTraits.nameCount })
  }

  /// The direct printer's table of packed names gives every listed name the traits the tree
  /// reader's dictionary gives it, and unlisted names none.
  @Test func theNameTableAgreesWithTheTreeReadersLists() {
    func traits(_ name: String) -> HTMLElementTraits {
      PackedNameTable.shared.traits(of: PackedName(Array(name.utf8), from: 0, to: name.utf8.count)!)
    }
    let names = HTMLElementTraits.listedNames.filter { $0 == $0.lowercased() }
    #expect(names.count > 100)
    for name in names {
      #expect(traits(name) == HTMLElementTraits(name: name), "\(name)")
      #expect(traits(name.uppercased()) == HTMLElementTraits(name: name), "\(name)")
    }
    for name in ["x", "custom-el", "tablex", "tabl", "abcdefghijklmno", "h7"] {
      #expect(traits(name).isEmpty, "\(name)")
    }
  }

  @Test func pagesThatNeedTheTreeAreRefused() {
    for page in [
      "<p><b>x<p>y",  // `b` reopened in the second `p`
      "<b><p>x</b>y",  // the adoption agency moves `p`
      "<svg><foreignObject><p>x</p></foreignObject></svg>", "<svg><p>x</svg>",
      "<math><mi><b>x</b></mi></math>", "<svg><![CDATA[x]]></svg>", "<pre><svg> </svg>",
      "<plaintext>x", "<svg><plaintext>x",
      "<html a=1><html b=2>", "<body><p>x<body class=late>", "<image src=x>",
      "<café>x</café>", "<p ä=1 Ä=2>", "<p title='a\"\u{301}'>x",
    ] {
      #expect(Self.directText(page) == nil, "\(page)")
      #expect(!Self.treeText(page).isEmpty)
    }
  }

  @Test func pagesWithinItsRulesAreAccepted() {
    let cases: [(String, String)] = [
      ("<ul><li>One<li>Two</ul>", "<ul>\n  <li>One</li>\n  <li>Two</li>\n</ul>\n"),
      ("<p>a <b>b</b> c</p>", "<p>\n  a\n  <b>b</b>\n  c\n</p>\n"),
      ("<pre>\nx  <i>y</i>\n</pre>", "<pre>\nx  <i>y</i>\n</pre>\n"),
      ("<textarea>\n\nt</textarea>", "<textarea>\n\nt</textarea>\n"),
      ("<p>x</span>y</p><!--c-->", "<p>xy</p>\n<!--c-->\n"),
      (
        "<svg viewBox='0 0 1 1'><G><path d=M0 /></G><text>t</text></svg>",
        "<svg viewBox=\"0 0 1 1\">\n  <G>\n    <path d=\"M0\"/>\n  </G>\n  <text>t</text>\n</svg>\n"
      ),
      ("\u{FEFF}<!doctype html><title>T</title>", "\u{FEFF}<!doctype html>\n<title>T</title>\n"),
    ]
    for (html, expected) in cases {
      #expect(Self.directText(html) == expected, "\(html)")
      #expect(Self.treeText(html) == expected, "\(html)")
    }
  }

  /// `.html` without redaction goes through the direct printer, with redaction through the tree.
  @Test func theStrategyUsesTheDirectPrinterWithoutRedaction() {
    let html = "<form><input name=csrf value=abc></form>"
    #expect(canonical(html, as: .html) == Self.directText(html))
    #expect(
      canonical(html, as: .html(redacting: [.attribute("value", of: "input")]))
        == "<form>\n  <input name=\"csrf\" value=\"[redacted]\">\n</form>\n"
    )
  }
}
