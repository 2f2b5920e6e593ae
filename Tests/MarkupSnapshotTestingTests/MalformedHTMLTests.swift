import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// Bad HTML gives a canonical form, as it gives a browser a page: never a crash, a hang or a
/// stack overflow.
@Suite struct MalformedHTMLTests {
  func canonical(_ html: String) -> String {
    MarkupSnapshotTestingTests.canonical(html, as: .html)
  }

  @Test func unclosedTagsAreClosedAtTheEnd() {
    #expect(canonical("<div><span>x") == "<div>\n  <span>x</span>\n</div>\n")
  }

  @Test func aTagCutOffByTheEndOfInputIsDropped() {
    #expect(canonical("<p>x</p><a href=\"y") == "<p>x</p>\n")
    #expect(canonical("<p>x<!-- never closed") == "<p>\n  x\n  <!-- never closed-->\n</p>\n")
  }

  @Test func badEntitiesAreKeptAsWritten() {
    #expect(canonical("<p>&bogus; &amp &#xZZ; & done</p>") == "<p>&bogus; &amp &#xZZ; & done</p>\n")
  }

  @Test func aLoneLessThanSignIsTextAndLessThanSlashSpaceABogusComment() {
    #expect(canonical("<p>a < b <3 & c</p>") == "<p>a < b <3 & c</p>\n")
    #expect(canonical("<p>a </ c</p>") == "<p>\n  a\n  <!-- c</p-->\n</p>\n")
  }

  @Test func invalidUTF8BecomesReplacementCharacters() {
    let data = Data([0x3C, 0x70, 0x3E, 0xC3, 0x28, 0xE2, 0x82])
    #expect(snapshotText(data, as: .html).text == "<p>\u{FFFD}(\u{FFFD}</p>\n")
  }

  @Test func tenThousandNestedDivsPrintWithIndentationCapped() {
    let depth = 10_000
    let html =
      String(repeating: "<div>", count: depth) + "x" + String(repeating: "</div>", count: depth)
    let lines = canonical(html).split(separator: "\n")
    #expect(lines.count == 2 * depth - 1)
    let deepest = lines[depth - 1]
    #expect(
      deepest
        == Substring(
          String(repeating: "  ", count: CanonicalPrinter.maximumIndentedDepth) + "<div>x</div>"
        )
    )
  }

  @Test func unclosedNestedDivsDoNotOverflowEither() {
    let text = canonical(String(repeating: "<div><b>", count: 10_000))
    #expect(text.split(separator: "\n").count == 39_999)
  }

  @Test func aTenMegabyteOneLinePageIsCanonicalised() {
    let row = "<tr><td class=n>1</td><td><a href='/x?a=1&b=2'>link</a></td></tr>"
    let page = "<table>" + String(repeating: row, count: 10_000_000 / row.utf8.count) + "</table>"
    #expect(page.utf8.count > 9_900_000)
    let text = canonical(page)
    #expect(text.hasPrefix("<table>\n  <tr>\n    <td class=\"n\">1</td>\n"))
    #expect(text.hasSuffix("  </tr>\n</table>\n"))
  }
}
