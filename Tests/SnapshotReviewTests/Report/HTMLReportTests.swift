import Foundation
import SnapshotTesting
import Testing

@testable import SnapshotReview

@Suite struct HTMLReportTests {
  static func render(_ fixture: ReviewFixture) -> String {
    let pending = PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: fixture.root)
    return HTMLReport(
      failures: pending.failures,
      hints: CommandHints(packageRoot: fixture.root),
      artifactsRoot: fixture.artifacts,
      generatedAt: Date(timeIntervalSince1970: 0)
    ).render()
  }

  func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test func oneSelfContainedEntryPerFailure() throws {
    try ReviewFixture.with { fixture in
      let html = Self.render(fixture)
      #expect(occurrences(of: "<article class=\"entry\"", in: html) == 4)
      #expect(html.contains("<title>4 pending snapshot failures</title>"))
      // Nothing is fetched: no external scripts, styles, images or links.
      #expect(!html.contains("http://") && !html.contains("https://"))
      #expect(!html.contains("src=\"file:"))
      // Reference, new and difference side by side, and the two overlays of reference and new.
      #expect(occurrences(of: "src=\"data:image/png;base64,", in: html) == 7)
      // Coloured diff lines, with the diff's own markers.
      #expect(html.contains("<span class=\"removed\">\u{2212}World</span>"))
      #expect(html.contains("<span class=\"added\">+there</span>"))
      #expect(html.contains("<span class=\"added\">+brand new</span>"))
      // Each entry names its test, file:line and the command that accepts it.
      #expect(html.contains("testBadge()"))
      #expect(html.contains("ReviewFixture.swift:"))
      #expect(
        html.contains(
          "<code class=\"command\">swift run snapshot-testing accept \(fixture.relative(ReviewFixture.greeting))</code>"
        )
      )
      #expect(html.contains("data-view=\"swipe\"") && html.contains("data-view=\"onion\""))
      #expect(html.contains("24×16"))
    }
  }

  @Test func namesAndMessagesAreEscaped() throws {
    try ReviewFixture.with { fixture in
      fixture.verify("<b>bold</b> & 'quoted'\n", as: .lines, testName: "test<script>()")
      let html = Self.render(fixture)
      #expect(!html.contains("test<script>"))
      #expect(html.contains("test&lt;script&gt;()"))
      #expect(html.contains("+&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quoted&#39;"))
    }
  }

  @Test func anSVGReferenceIsShownAsAnImageBesideItsDiff() throws {
    try ReviewFixture.with { fixture in
      let svg = Snapshotting<String, String>(pathExtension: "svg", diffing: .lines)
      let old = "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<text>old</text>\n</svg>\n"
      let new = "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<text>new</text>\n</svg>\n"
      try Data(old.utf8).write(to: fixture.snapshots.appendingPathComponent("testTerminal.1.svg"))
      #expect(fixture.verify(new, as: svg, testName: "testTerminal()") != nil)
      let html = Self.render(fixture)
      // The text diff, then the two images, inline.
      // (The changed word is marked, as in every paired line of a text diff.)
      #expect(html.contains("<span class=\"added\">+&lt;text&gt;<ins>new</ins>&lt;/text&gt;</span>"))
      let reference = "data:image/svg+xml;base64,\(Data(old.utf8).base64EncodedString())"
      let snapshot = "data:image/svg+xml;base64,\(Data(new.utf8).base64EncodedString())"
      #expect(html.contains("<img src=\"\(reference)\" alt=\"Reference\">"))
      #expect(html.contains("<img src=\"\(snapshot)\" alt=\"New\">"))
      // Other text formats get no image.
      #expect(occurrences(of: "data:image/svg+xml", in: html) == 2)
    }
  }

  @Test func anEmptyReportSaysSo() throws {
    try ReviewFixture.with { fixture in
      let html = HTMLReport(
        failures: [],
        hints: CommandHints(packageRoot: fixture.root),
        artifactsRoot: fixture.artifacts
      ).render()
      #expect(html.contains("<h1>No pending snapshot failures</h1>"))
      #expect(!html.contains("class=\"entry\""))
    }
  }

  @Test func patchLinesAreClassified() {
    let lines = PatchLine.parse("@@ \u{2212}1,2 +1,2 @@\n\u{2007}Hello\n\u{2212}World\n+there\n")
    #expect(
      lines == [
        .hunk("@@ \u{2212}1,2 +1,2 @@"), .context("\u{2007}Hello"), .removed("\u{2212}World"),
        .added("+there"),
      ]
    )
  }

  @Test func pngSizeReadsTheHeaderAndRejectsOtherData() throws {
    let header: [UInt8] = [
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
      0, 0, 1, 0x2C, 0, 0, 0, 20,
    ]
    let size = try #require(PNGSize(Data(header)))
    #expect(size.width == 300 && size.height == 20)
    #expect(size.displayWidth == 300)
    var small = header
    small[19] = 24
    small[18] = 0
    #expect(PNGSize(Data(small))?.displayWidth == 240)
    #expect(PNGSize(Data("version https://git-lfs.github.com/spec/v1\n".utf8)) == nil)
    #expect(PNGSize(Data(header.prefix(20))) == nil)
  }

  @Test func reportCommandWritesTheFileAndSaysWhere() throws {
    try ReviewFixture.with { fixture in
      let console = ScriptedConsole()
      let session = ReviewSession(
        artifactsRoot: fixture.artifacts,
        hints: CommandHints(packageRoot: fixture.root),
        console: console
      )
      let output = fixture.artifacts.appendingPathComponent("report.html")
      #expect(session.report(to: output, filters: []) == .success)
      #expect(console.output == "Wrote the report of 4 pending failures to \(output.path)\n")
      #expect(FileManager.default.fileExists(atPath: output.path))

      #expect(session.report(to: output, filters: ["nothing-like-this"]) == .noMatch)
      let unwritable = fixture.reference(ReviewFixture.greeting)
        .appendingPathComponent("report.html")
      #expect(session.report(to: unwritable, filters: []) == .failure)
      #expect(
        console.errors.contains("error: could not write the report to \"\(unwritable.path)\"")
      )
    }
  }
}
