import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// Deep and hostile nesting on every path (the direct HTML printer, the HTML tree with the
/// canonical printer, redaction, XML): up to ``MarkupDocument/maximumDepth`` levels print, and
/// every level freed, walked and printed costs heap, never the call stack (before the tree was
/// released iteratively, 25,000 levels overflowed the stack and killed the test process);
/// deeper documents, up to 100 MB of unclosed tags, are refused with a message, early.
@Suite struct DeepNestingTests {
  static let limit = MarkupDocument.maximumDepth

  static func divs(_ depth: Int, inner: String = "x") -> String {
    String(repeating: "<div>", count: depth) + inner + String(repeating: "</div>", count: depth)
  }

  /// The message of a document refused at the element that begins at `column` of line 1.
  static func refusal(_ format: String, column: Int) -> String {
    "The \(format) nests elements more than 100000 levels deep (the element at line 1, column "
      + "\(column) is one too many); a snapshot refuses it rather than print a tree that deep."
  }

  /// The canonical text of `divs` nested `div`s around `innermost`: a line per start tag, each
  /// two spaces deeper up to the cap, `innermost`, then a line per end tag. (Built and compared
  /// whole: splitting 40 MB into lines would take most of a debug build's test.)
  static func nestedText(divs: Int, innermost: String) -> String {
    let cap = CanonicalPrinter.maximumIndentedDepth
    func indent(_ depth: Int) -> String { String(repeating: "  ", count: min(depth, cap)) }
    var opening = ""
    var closing = ""
    for depth in 0..<min(divs, cap) {
      opening += indent(depth) + "<div>\n"
      closing = indent(depth) + "</div>\n" + closing
    }
    let deeper = max(divs - cap, 0)
    return opening + String(repeating: indent(cap) + "<div>\n", count: deeper)
      + indent(divs) + innermost + "\n"
      + String(repeating: indent(cap) + "</div>\n", count: deeper) + closing
  }

  // MARK: - At the limit: printed

  @Test func theDirectPrinterPrintsTheDeepestAcceptedPage() throws {
    let text = try #require(DirectHTMLPrinter.canonicalText(Array(Self.divs(Self.limit).utf8)))
    #expect(text == Self.nestedText(divs: Self.limit - 1, innermost: "<div>x</div>"))
  }

  @Test func theTreeReaderAndCanonicalPrinterPrintTheDeepestAcceptedPage() throws {
    let document = try HTMLReader.read(Array(Self.divs(Self.limit).utf8))
    let text = CanonicalPrinter(flavor: .html).print(document)
    #expect(text == Self.nestedText(divs: Self.limit - 1, innermost: "<div>x</div>"))
  }

  @Test func redactionWalksAndPrintsTheDeepestAcceptedPage() {
    let html = Self.divs(Self.limit - 1, inner: "<b id=secret>x</b>")
    let (text, failure) = snapshotText(html, as: .html(redacting: [.attribute("id", of: "b")]))
    #expect(failure == nil)
    #expect(text == Self.nestedText(divs: Self.limit - 1, innermost: "<b id=\"[redacted]\">x</b>"))
  }

  @Test func redactingTheContentOfTheOutermostElementFreesTheDeepTreeBelowIt() {
    let html = "<main>" + Self.divs(Self.limit - 1) + "</main>"
    #expect(
      canonical(html, as: .html(redacting: [.text(of: "main")])) == "<main>[redacted]</main>\n"
    )
  }

  @Test func xmlPrintsTheDeepestAcceptedDocument() {
    let xml =
      String(repeating: "<div>", count: Self.limit) + "x"
      + String(repeating: "</div>", count: Self.limit)
    let text = canonical(xml, as: .xml)
    #expect(text == Self.nestedText(divs: Self.limit - 1, innermost: "<div>x</div>"))
  }

  // MARK: - A million levels: refused

  @Test func theArticleShowsTheRefusalOfAPageTooDeep() throws {
    let shown = try codeBlock(
      in: "Sources/MarkupSnapshotTesting/Documentation.docc/MarkupSnapshots.md",
      after: "the assertion fails, recording nothing:")
    let html = String(repeating: "<div>", count: 1_000_000)
    #expect(snapshotText(html, as: .html).failure == shown)
  }

  @Test func aMillionNestedLevelsOfHTMLAreRefusedNamingTheElementTooDeep() {
    let html = Self.divs(1_000_000)
    #expect(DirectHTMLPrinter.canonicalText(Array(html.utf8)) == nil)
    #expect(snapshotText(html, as: .html).failure == Self.refusal("HTML", column: 500_001))
  }

  @Test func theTreeReaderStopsAtTheFirstElementTooDeep() {
    #expect(throws: MarkupSyntaxError.self) {
      try HTMLReader.read(Array(Self.divs(1_000_000).utf8))
    }
    do {
      _ = try HTMLReader.read(Array(Self.divs(1_000_000).utf8))
    } catch {
      #expect(error.isTooDeep)
      #expect(error.offset == 5 * Self.limit)
    }
  }

  @Test func aMillionNestedLevelsAreRefusedWithRedactionsToo() {
    let failure = snapshotText(
      Self.divs(1_000_000),
      as: .html(redacting: [.text(of: "div")])
    ).failure
    #expect(failure == Self.refusal("HTML", column: 500_001))
  }

  @Test func aMillionNestedLevelsOfXMLAreRefusedNamingTheElementTooDeep() {
    let xml =
      String(repeating: "<d>", count: 1_000_000) + String(repeating: "</d>", count: 1_000_000)
    #expect(snapshotText(xml, as: .xml).failure == Self.refusal("XML", column: 300_001))
    #expect(
      snapshotText(Data(xml.utf8), as: .xml).failure == Self.refusal("XML", column: 300_001)
    )
  }

  // MARK: - Hostile size

  /// 100 MB of unclosed tags is refused where it passes the limit, without reading the rest.
  /// Measured once (debug build, `/usr/bin/time -v` on this test alone, 2 shared cores): 2.2 s
  /// user and 0.4 s system CPU time, 450 MB maximum resident, for both documents and their
  /// copies (the bound: 10 s and 1 GiB).
  @Test func oneHundredMegabytesOfUnclosedTagsAreRefusedEarly() {
    let html = String(repeating: "<div>", count: 20_000_000)
    #expect(snapshotText(html, as: .html).failure == Self.refusal("HTML", column: 500_001))
    let xml = String(repeating: "<d>", count: 33_400_000)
    #expect(snapshotText(xml, as: .xml).failure == Self.refusal("XML", column: 300_001))
  }
}
