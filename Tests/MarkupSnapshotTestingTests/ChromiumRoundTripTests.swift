import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// The promise of `.html`: the canonical text, parsed by a browser, gives the same DOM as the
/// original. Chromium parses both (scripts on, as a user's page runs) and the two serialised DOMs
/// are compared by their canonical forms, which keep every element name, attribute and text and
/// drop only whitespace-only text and the whitespace at the ends of text.
@Suite(.enabled(if: ChromiumDOM.suitesRun, ChromiumDOM.skipReason))
struct ChromiumRoundTripTests {
  static let pagesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("__Fixtures__/pages")

  /// Pages of the corpus: the web suite's pages, Plot and swift-html output, a hand-written page.
  static let fixturePages: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: pagesFolder.path)) ?? []
    return names.filter { $0.hasSuffix(".html") }.sorted()
  }()

  /// Tree-construction cases in the spirit of html5lib's: each rule the reader models.
  static let treeConstructionCases: [String] = [
    "<p>a<p>b", "<p>a<div>b</div>c", "<ul><li>a<li>b<ul><li>c</ul><li>d</ul>",
    "<dl><dt>a<dd>b<dt>c</dl>", "<table><tr><td>a<td>b<tr><td>c</table>",
    "<table><thead><tr><th>h<tbody><tr><td>d<tfoot><tr><td>f</table>",
    "<table><caption>c<tr><td>x</table>", "<select><option>a<option>b<optgroup><option>c</select>",
    "<h1>a<h2>b</h2>", "<a href=1>a<a href=2>b", "<button>a<button>b", "<p>x</p></p>",
    "<div>a</span>b</div>", "</br>", "<br/><hr/><img src=a><input value='x\"y'>",
    "<pre>\n\nx</pre>", "<pre>\nx</pre>", "<textarea>\nx</textarea>", "<listing>\ny</listing>",
    "<title>a <b> &amp;</title><p>x", "<script>a</div>b</script>", "<style>p{}</style>x",
    "<xmp><b>x</b></xmp>", "<iframe><p>x</p></iframe>", "<noembed>x<b></noembed>",
    "<svg><path/><g><circle r=1 /></g></svg>",
    "<svg viewBox='0 0 1 1'><foreignObject><p>x</p></foreignObject></svg>",
    "<svg><p>breaks out</svg>", "<math><mi>x</mi><mtext><b>y</b></mtext></math>",
    "<svg><![CDATA[a<b]]></svg>", "<!--a--><!---->x<!-->y<!--->z", "<?php x ?><!bogus>t",
    "<p a=1 a=2 B=3 c>x", "<p title=a&amp;b data-x=\"&quot;\">x", "<DIV CLASS=X>y</DIV>",
    "<head><title>t</title></head><body class=b><p>x", "<html lang=en><body><p>x</body></html>",
    "<title>t</title><meta charset=utf-8><p>x", "<head><link rel=a><p>x", "x<head>y",
    "<body a=1><body b=2>x", "<p>a <b>bold</b> and <i>italic</i> c</p>", "<p>&bogus; &amp & < b",
    "<ol><li>a<div>b<li>c</div></ol>", "<li>a<p>b<li>c", "<option>a<option>b",
    "<table><td>x</table>", "<form><input name=a></form>", "<p><table><tr><td>x</table>",
    "<!doctype html><p><table><tr><td>x</table>", "<noscript><p>x</p></noscript>",
    "<plaintext><p>x</p>", "<a><div>x</div></a>", "<image src=x>",
    "<p>one\n\n   two   three</p>", "<div>\n  <span>a</span>\n  <span>b</span>\n</div>",
    "<template><p>x</p></template>", "<details><summary>s</summary>x</details>",
    "<table>x<tr><td>y</table>",
    // Misnested formatting elements: the adoption agency and reopened formatting elements.
    "<b><i>x</b>y</i>", "<b><p>x</b>y</p>", "<p><b>x<p>y", "<a><p>x</a>y",
    "<b>1<i>2</b>3</i>4", "<em><div>x</em></div>", "<p><b>x</p>y", "<b><table><td>x</table>y",
    "<a href=1><div>x<a href=2>y</div>", "<b>1<p>2<i>3</b>4</i>5</p>",
    "<table><tr><td><b>x</td><td>y</table>", "<i><b><u><s><p>deep</i>z",
    "<b id=1>x<b id=2>y</b></b>z", "<nobr>a<nobr>b", "<div><b>x</div>y",
    // At most three identical entries (Noah's Ark); `<nobr>` by the stack; an end tag beyond
    // `mtext` or `foreignObject` is ignored.
    "<p><b><b><b><b>x</p>y", "<p><b c=1><b><b><b>x</p>y", "<p><nobr>x</p><nobr>y",
    "<i><p><math><mtext><p>x</i>y", "<b><p><svg><foreignObject><div>x</b>y",
    // Found by RandomHTMLTests: `</p>` leaves SVG and MathML; no reopening inside them.
    "<svg><g></p>x</svg>", "<math><mi>a</mi></p>b", "<table><i><caption>x</table><math>y",
    "<pre><a href=x>1</pre>2",
    "<table><tr><td>a</td>b</tr></table>",
    "<select><div>x</div></select>",
    "<script><!--<script>x</script>y</script>", "<frameset><frame></frameset>",
    "<frame>x<div><frame>y</div><template><frame></template>",
    // Where html5lib 1.1 follows an older standard: `dialog` ends a `p`; the adoption agency's
    // inner loop goes past three steps.
    "<!doctype html><p>foo<dialog>bar<p>baz", "<p>a<search>b</search>",
    "<a><b><g><em><s><div><a></em>", "<a><t><f><l><r><h1><a></h1>x",
    "<svg><title><b>x</b></title></svg>",
    "<p>x<svg><p>y</svg>", "<ul><li><p>a</ul>b", "<font color=red><svg><font color=x>y</svg>",
  ]

  /// The DOM of every page and case of the suite and of its canonical text, by page, from one
  /// browser: one start for the suite rather than two for each case, which were nearly all of
  /// its time (89 s of processor time before, 8 s now).
  static let doms: Result<[String: (original: String, reparsed: String)], any Error> = Result {
    let pages =
      try fixturePages.map {
        try String(contentsOf: pagesFolder.appendingPathComponent($0), encoding: .utf8)
      } + treeConstructionCases
    let dumps = try ChromiumDOM.dumpAll(pages + pages.map { snapshotText($0, as: .html).text })
    var doms: [String: (original: String, reparsed: String)] = [:]
    for (position, page) in pages.enumerated() {
      doms[page] = (dumps[position], dumps[pages.count + position])
    }
    return doms
  }

  @Test(arguments: fixturePages)
  func aCorpusPageKeepsItsDOM(name: String) throws {
    let html = try String(
      contentsOf: Self.pagesFolder.appendingPathComponent(name),
      encoding: .utf8
    )
    try ChromiumDOM.expectSameDOM(html, in: Self.doms.get())
  }

  @Test(arguments: treeConstructionCases)
  func aTreeConstructionCaseKeepsItsDOM(html: String) throws {
    try ChromiumDOM.expectSameDOM(html, in: Self.doms.get())
  }
}

/// Runs Chromium's `--dump-dom` on a driver page whose frames hold the HTML to parse.
enum ChromiumDOM {
  static let candidates = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"]
  static let executable: String? = candidates.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Whether the Chromium suites run: with Chromium, and always on CI, where a missing browser
  /// fails each of their tests with ``missing``'s message, as every browser suite does.
  static let suitesRun = browserSuitesRun(browserFound: executable != nil)

  static let skipReason: Comment =
    "Chromium is not installed; install it with `scripts/require-system-packages.sh --with-chromium`"

  /// `executable`, or the failure that says what was looked for and how to install it.
  static func require(_ executable: String?) throws -> String {
    guard let executable else { throw missing }
    return executable
  }

  static let missing = DumpFailure(
    message: "Chromium is not installed (looked for \(candidates.joined(separator: " and "))); "
      + "install it with `scripts/require-system-packages.sh --with-chromium`"
  )

  /// Expects the DOM of `html`'s canonical text to be the DOM of `html`, both taken from `doms`
  /// (made by ``dumpAll(_:)``).
  static func expectSameDOM(
    _ html: String,
    in doms: [String: (original: String, reparsed: String)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let canonical = snapshotText(html, as: .html).text
    let (original, reparsed) = try #require(doms[html], sourceLocation: sourceLocation)
    #expect(!original.isEmpty, sourceLocation: sourceLocation)
    let expected = snapshotText(original, as: .html).text
    let actual = snapshotText(reparsed, as: .html).text
    #expect(
      actual == expected,
      "canonical text:\n\(canonical)\nDOM of the original:\n\(original)\nDOM of the canonical text:\n\(reparsed)",
      sourceLocation: sourceLocation
    )
  }

  /// The DOMs Chromium builds from each of `pages`, serialised, in one browser: every page is a
  /// file loaded in a frame of a driver page (so each keeps its own quirks mode and scripts, as
  /// when it is opened alone), and the driver collects the frames' `outerHTML` once all loaded.
  /// The frames are not displayed: nothing is laid out or drawn, which a DOM does not need (an
  /// eighth less processor time on the html5lib corpus).
  static func dumpAll(_ pages: [String]) throws -> [String] {
    guard !pages.isEmpty else { return [] }
    return try withTemporaryFolder { folder in
      var frames = ""
      for (position, page) in pages.enumerated() {
        try Data(page.utf8).write(to: folder.appendingPathComponent("page\(position).html"))
        frames += "<iframe src=\"page\(position).html\"></iframe>"
      }
      let driver = folder.appendingPathComponent("driver.html")
      try Data((driverPage + frames).utf8).write(to: driver)
      let dump = try run(driver, extraArguments: ["--allow-file-access-from-files"])
      guard let start = dump.range(of: "<div id=\"dumps\">"),
        let end = dump.range(of: "</div>", range: start.upperBound..<dump.endIndex),
        let json = String(dump[start.upperBound..<end.lowerBound]).removingPercentEncoding,
        let dumps = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String],
        dumps.count == pages.count
      else {
        throw DumpFailure(message: "Chromium's driver page gave no DOMs:\n\(dump.prefix(2_000))")
      }
      return dumps
    }
  }

  struct DumpFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  /// Once every frame has loaded, writes their DOMs as a JSON array, percent-encoded so that the
  /// dumped driver holds it as plain text.
  private static let driverPage = """
    <!DOCTYPE html><meta charset="utf-8"><style>iframe{display:none}</style><script>
    addEventListener("load", () => {
      const dumps = [...document.querySelectorAll("iframe")].map((frame) => {
        const root = frame.contentDocument && frame.contentDocument.documentElement;
        return root ? root.outerHTML : "";
      });
      const output = document.createElement("div");
      output.id = "dumps";
      output.textContent = encodeURIComponent(JSON.stringify(dumps));
      document.body.prepend(output);
    });
    </script><body>
    """

  /// `--dump-dom` of `file`, with a browser profile of its own next to it.
  private static func run(_ file: URL, extraArguments: [String] = []) throws -> String {
    let executable = try require(executable)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    var arguments = [
      // Not `--single-process`: 15 % less processor time on the html5lib corpus, but a browser
      // that sometimes dumps nothing (seen once in CI, on `tests18.dat`).
      "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--user-data-dir=\(file.deletingLastPathComponent().path)/profile",
      "--dump-dom", file.absoluteString,
    ]
    if !executable.hasSuffix("headless-shell") { arguments.insert("--headless", at: 0) }
    process.arguments = extraArguments + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}

/// Without Chromium the Markup browser suites are skipped on a developer's machine, and run and
/// fail on CI, as every browser suite does.
@Suite struct ChromiumRequirementTests {
  @Test func onCIAMissingChromiumFailsEachTestNamingWhatWasLookedFor() throws {
    #expect(browserSuitesRun(browserFound: false, environment: ["CI": "true"]))
    #expect(!browserSuitesRun(browserFound: false, environment: ["CI": ""]))
    #expect(!browserSuitesRun(browserFound: false, environment: [:]))
    let error = try #require(throws: ChromiumDOM.DumpFailure.self) { try ChromiumDOM.require(nil) }
    #expect(
      error.description
        == "Chromium is not installed (looked for /usr/bin/chromium-headless-shell and "
        + "/usr/bin/chromium); install it with `scripts/require-system-packages.sh --with-chromium`"
    )
    #expect(try ChromiumDOM.require("/usr/bin/chromium") == "/usr/bin/chromium")
  }
}
