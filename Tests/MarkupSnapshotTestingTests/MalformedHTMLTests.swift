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

  /// The canonical text through the tree reader, which `.html` leaves for pages it cannot print
  /// from their tokens.
  func treeText(_ html: String) throws -> String {
    CanonicalPrinter(flavor: .html).print(try HTMLReader.read(Array(html.utf8)))
  }

  /// The lines of `text` without their indentation, to find a run of elements at any depth.
  func unindented(_ text: String) -> String {
    text.split(separator: "\n").map { $0.drop { $0 == " " } + "\n" }.joined()
  }

  /// Found by FuzzHTML: text on both sides of a dropped tag or DOCTYPE is one text, and a `<`
  /// that ended the first half began a tag with the second once printed together (`a<` and `b`
  /// printed `a<b`, read back as a `b` element). The `<` is written `&lt;`, the same text.
  @Test(arguments: [
    ("<p>a<</x>b</p>", "<p>a&lt;b</p>\n"),
    ("<p>a<<!doctype x>b</p>", "<p>a&lt;b</p>\n"),
    ("<pre>a<</x>/b</pre>", "<pre>\na&lt;/b</pre>\n"),
    ("<p>a<</x>!b <</x>?c <</x> d</p>", "<p>a&lt;!b &lt;?c < d</p>\n"),
    // Whitespace between them becomes a space: no tag.
    ("<p>a<\r\n</x>b</p>", "<p>a< b</p>\n"),
    ("<pre>a<\n</x>b</pre>", "<pre>\na<\nb</pre>\n"),
  ])
  func aLessThanSignBeforeADroppedTagStaysText(html: String, expected: String) throws {
    #expect(canonical(html) == expected)
    #expect(try treeText(html) == expected)
    #expect(canonical(expected) == expected)
  }

  /// Found by FuzzHTML: an attribute name may begin with "=" (`<a b/=c>`), and after a
  /// valueless attribute and a space it read back as that attribute's value.
  @Test func aValuelessAttributeBeforeOneNamedWithAnEqualsSignKeepsItsOwnValue() throws {
    #expect(canonical("<font color</=red>X") == "<font color<=\"\" =red>X</font>\n")
    #expect(try treeText("<font color</=red>X") == "<font color<=\"\" =red>X</font>\n")
    #expect(canonical("<font color<=\"\" =red>X") == "<font color<=\"\" =red>X</font>\n")
  }

  /// Found by FuzzHTML: a DOCTYPE the page ends in was printed unclosed, so that it took in the
  /// line break after it, and one more each time the canonical text was read again.
  @Test func aDoctypeThePageEndsInIsClosed() throws {
    #expect(canonical("<!doctype html") == "<!doctype html>\n")
    #expect(try treeText("<!doctype html") == "<!doctype html>\n")
    #expect(canonical("<!DOCTYPE x SYSTEM \"a") == "<!DOCTYPE x SYSTEM \"a>\n")
    #expect(canonical("<!doctype html>") == "<!doctype html>\n")
  }

  /// A `<nobr>` tag ends a `nobr` open in scope (on the stack of open elements, not only in the
  /// list of active formatting elements, as for `a`), after reopening the formatting elements:
  /// a closed `nobr` is reopened empty and closed again, as browsers and html5lib do.
  @Test func aNobrTagReopensAndClosesTheNobrBeforeIt() throws {
    let expected = "<p>\n  <nobr>x</nobr>\n</p>\n<nobr></nobr>\n<nobr>y</nobr>\n"
    #expect(canonical("<p><nobr>x</p><nobr>y") == expected)
    #expect(try treeText("<p><nobr>x</p><nobr>y") == expected)
  }

  /// Found by FuzzHTML (`Fuzz/Corpus/FuzzHTML/finding-nobr-inside-nobr.html`, minimised): the
  /// adoption agency gives up after eight rounds and leaves a `nobr` open inside the last block
  /// it moved, so the new `nobr` goes inside it, in html5lib as in browsers. No HTML writes that
  /// tree (a `<nobr>` tag closes a `nobr` open around it): the canonical text prints it, and reads
  /// back with the two side by side. An intended exception to the fixed point, as a heading
  /// inside a heading is (MarkupSnapshots.md).
  @Test func aNobrLeftInsideANobrIsPrintedAndReadsBackSideBySide() throws {
    let html = "<nobr><div><dd><ul><li><dd><ul><li><p><nobr>"
    let moved = "<nobr></nobr>\n"
    let nested = "<p>\n<nobr>\n<nobr></nobr>\n</nobr>\n</p>\n"
    let sideBySide = "<p>\n<nobr></nobr>\n<nobr></nobr>\n</p>\n"
    let text = canonical(html)
    #expect(try treeText(html) == text)
    // One left behind by each of the eight rounds, and the new one.
    #expect(unindented(text).components(separatedBy: moved).count - 1 == 9)
    #expect(unindented(text).contains(nested))
    #expect(unindented(canonical(text)).contains(sideBySide))
  }

  /// Found by FuzzHTML's campaign: the same for `a`, whose tag ends an `a` the list of active
  /// formatting elements holds; here the `a` left open holds a `c`, where the new one goes.
  @Test func anALeftInsideAnAIsPrintedAndReadsBackSideBySide() throws {
    let html = "<a><div><dd><ul><li><dd><ul><li><p><c><a>"
    let text = canonical(html)
    #expect(try treeText(html) == text)
    #expect(unindented(text).contains("<p>\n<a>\n<c>\n<a></a>\n</c>\n</a>\n</p>\n"))
    #expect(unindented(canonical(text)).contains("<p>\n<a>\n<c></c>\n</a>\n<a></a>\n</p>\n"))
  }

  /// Found by the html5lib differential (a fuzzed page, minimised): after the eight rounds, the
  /// `a` left open is a copy the last round made, not the entry the tag found, so it stays open
  /// and the new `a` goes inside it, in html5lib as in Chromium. The reader dropped whichever
  /// `a` the list held, and put the new one beside it.
  @Test func anACopiedByTheLastRoundHoldsTheNewA() throws {
    let html = "<a><div><dd><ul><li><dd><ul><li><p><a>"
    let text = canonical(html)
    #expect(try treeText(html) == text)
    #expect(unindented(text).contains("<li>\n<a></a>\n<p>\n<a>\n<a></a>\n</a>\n</p>\n"))
    #expect(unindented(canonical(text)).contains("<li>\n<a></a>\n<p>\n<a></a>\n<a></a>\n</p>\n"))
  }

  /// Found by FuzzHTML: a formatting element's end tag finds the element out of scope when an
  /// SVG or MathML element that holds HTML (`mtext`, `foreignObject`…) stands above it, and is
  /// ignored, as in html5lib and browsers; the adoption agency used to move the blocks out, a
  /// tree the canonical text did not read back as. Other SVG elements are no boundary.
  @Test(arguments: [
    (
      "<i><p><math><mtext><p></i>",
      "<i>\n  <p>\n    <math>\n      <mtext>\n        <p></p>\n      </mtext>\n    </math>\n"
        + "  </p>\n</i>\n"
    ),
    ("<i><svg><g></i>x", "<i>\n  <svg>\n    <g/>\n  </svg>\n</i>\nx\n"),
  ])
  func aFormattingEndTagBeyondAnIntegrationPointIsIgnored(html: String, expected: String) throws {
    #expect(canonical(html) == expected)
    #expect(try treeText(html) == expected)
    #expect(canonical(expected) == expected)
  }

  /// Found by FuzzHTML once the limit of three identical formatting entries came: the fourth of
  /// four nested `b`s pushes the first one's entry off the list, so in `<b t><p><b><b><b><b>`
  /// that `b` has none, and its end tag in the canonical text ends the `b t` instead (the
  /// adoption agency looks in the list). No HTML writes that tree with end tags; it is printed
  /// as read, and reads back otherwise (MarkupSnapshots.md).
  @Test func aFormattingElementPushedOffTheListReadsBackOtherwise() throws {
    let html = "<b t><p><b><b><b><b>"
    let text = canonical(html)
    #expect(text.hasPrefix("<b t>\n  <p>\n    <b>\n      <b>\n"))
    #expect(try treeText(html) == text)
    #expect(canonical(text).hasPrefix("<b t></b>\n<p>\n  <b t>\n"))
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
