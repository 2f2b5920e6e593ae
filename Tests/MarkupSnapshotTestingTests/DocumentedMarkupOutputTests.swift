import Foundation
import MarkupSnapshotTesting
import TestSupport
import Testing

/// The references and failures the Markup articles show are what `.html` and `.xml` write and
/// report for the articles' inputs.
@Suite struct DocumentedMarkupOutputTests {
  static let docc = "Sources/MarkupSnapshotTesting/Documentation.docc"

  @Test func homePage() throws {
    let shown = try codeBlock(
      in: "\(Self.docc)/MarkupSnapshotTesting.md",
      after: "records `homePage.1.html`:"
    )
    let page = #"<ul class=nav><li><a href="/">Home</a><li>About</ul>"#
    // A code block cannot end in a newline; the reference does.
    #expect(snapshotText(page, as: .html).text == shown + "\n")
  }

  @Test func sitemap() throws {
    let shown = try codeBlock(
      in: "\(Self.docc)/MarkupSnapshots.md",
      after: "assertSnapshot(of: xml, as: .xml)\n}\n```"
    )
    let xml = #"<?xml version="1.0"?><urlset><url><loc>https://example.com/</loc></url></urlset>"#
    #expect(snapshotText(xml, as: .xml).text == shown + "\n")
  }

  /// `</a>` at the start of line 3 where `<b>` is still open.
  @Test func xmlThatIsNotWellFormed() throws {
    let shown = try codeBlock(
      in: "\(Self.docc)/MarkupSnapshots.md",
      after: "column of the first error:"
    )
    #expect(snapshotText("<a>\n<b>\n</a>", as: .xml).failure == shown)
  }

  @Test func aRedactionSelectorThatMatchesNothing() throws {
    let shown = try codeBlock(
      in: "\(Self.docc)/MarkupSnapshots.md",
      after: "assertion with a message naming it, and"
    )
    let page = "<body><p>Hello</p></body>"
    #expect(snapshotText(page, as: .html(redacting: [.text(of: "main")])).failure == shown)
  }
}
