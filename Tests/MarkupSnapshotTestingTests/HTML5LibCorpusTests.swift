import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// html5lib's tree-construction tests (`__Fixtures__/html5lib-tests`, MIT, from the `html5lib` 1.1
/// source distribution on PyPI) in the Chromium round trip: for every document of the corpus,
/// Chromium parses the original and its canonical text and finds the same DOM.
///
/// Cases that cannot be a page are counted out by kind (fragments, scripting off); cases where
/// the canonical text gives another DOM are listed by name in ``knownDifferences`` with the
/// reason, and the test fails when one of them stops differing, so that the list stays true.
@Suite(.enabled(if: ChromiumDOM.suitesRun, ChromiumDOM.skipReason))
struct HTML5LibCorpusTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("__Fixtures__/html5lib-tests/tree-construction")

  static let files: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".dat") }.sorted()
  }()

  /// Cases whose canonical text Chromium parses into another DOM than the original, by
  /// `file#number` (the number counts the file's `#data` sections from 1), with the reason: the
  /// parts of the standard's tree builder that the reader does not model (see ``HTMLReader``).
  static let knownDifferences: [String: String] = {
    var table: [String: String] = [:]
    for (reason, names) in differencesByReason {
      for name in names { table[name] = reason }
    }
    return table
  }()

  static let differencesByReason: KeyValuePairs<String, [String]> = [
    "foster parenting: the browser moves text and inline elements out of a table; text it "
      + "joins there stands on lines of its own in the canonical text (and gains a space), "
      + "and formatting elements it reopens around moved content are not modelled":
      [
        "adoption01.dat#11", "adoption01.dat#12", "tests1.dat#31", "tests1.dat#33",
        "tests1.dat#78", "tests1.dat#79", "tests1.dat#80", "tests1.dat#104", "tests19.dat#91",
        "tests19.dat#96", "tests26.dat#3", "tests7.dat#28", "tests7.dat#30", "tests8.dat#7",
        "tricky01.dat#6", "tricky01.dat#8", "webkit02.dat#6",
      ],
    "template contents: the template insertion modes (a `td` or `tr` directly in a "
      + "`template`, `html` and `body` tags inside one) are not modelled":
      [
        "template.dat#27", "template.dat#29", "template.dat#32", "template.dat#34",
        "template.dat#35", "template.dat#36", "template.dat#65", "template.dat#66",
        "template.dat#67", "template.dat#68", "template.dat#97", "template.dat#98",
        "template.dat#99", "template.dat#101",
      ],
    "after the body: a comment after `</body>` or `</html>` belongs to the `html` element "
      + "or the document, and the canonical text prints it inside the body":
      [
        "tests1.dat#34", "tests15.dat#5", "tests19.dat#21", "webkit01.dat#22", "webkit01.dat#23",
        "webkit01.dat#25", "webkit01.dat#26",
      ],
    "frameset: the frameset insertion modes are not modelled":
      ["tests18.dat#34", "tests19.dat#40", "tests19.dat#82", "webkit01.dat#29"],
    "before and after the body: a `meta` or `title` after `</html>` or `</body>` goes to "
      + "the head; `html` attributes after the page began go on the `html` element the "
      + "browser made":
      ["tests1.dat#93", "tests15.dat#4", "tests15.dat#6", "tests2.dat#53", "tests2.dat#54"],
    "SVG and MathML: HTML end tags that close foreign content, a table ending inside it, "
      + "and formatting elements reopened inside an integration point are not modelled":
      [
        "namespace-sensitivity.dat#1", "pending-spec-changes.dat#2", "tests10.dat#15",
        "tests10.dat#28", "tests10.dat#29", "tests9.dat#16", "tests26.dat#11", "tests26.dat#12",
        "tests26.dat#13", "tests26.dat#14",
      ],
    "CDATA next to text: the browser makes one text of them; on lines of their own they "
      + "gain a space":
      ["tests21.dat#24"],
    "`rp` and `rt`: their implied end tags inside `ruby` are not modelled":
      ["tests19.dat#9", "tests19.dat#11", "tests19.dat#12", "tests19.dat#14"],
    "the form element pointer: a `form` ended inside a table or another block, which the "
      + "browser tracks apart from the open elements, is not modelled":
      ["tests16.dat#197", "tests20.dat#28", "tests6.dat#2"],
    "`plaintext` inside a table, a button or formatting elements: everything after the "
      + "tag is its text, so what the browser puts around or inside it cannot be written "
      + "after it":
      [
        "tests18.dat#8", "tests18.dat#9", "tests18.dat#10", "tests18.dat#13", "tests18.dat#15",
        "tests19.dat#6", "tests19.dat#104", "tests20.dat#15", "tests2.dat#13",
      ],
    "the script-data escape states (`<!--<script>` inside a `script`) are not modelled":
      ["tests16.dat#65", "tests16.dat#162"],
    "`</` at the very end of the input is text; the canonical text ends it with a "
      + "newline, which makes it a bogus comment":
      ["tests1.dat#38"],
  ]

  @Test(arguments: files)
  func everyDocumentOfAFileKeepsItsDOM(file: String) throws {
    let cases = try HTML5LibCase.read(Self.folder.appendingPathComponent(file))
    let documents = cases.filter(\.isPage)
    let canonicalTexts = documents.map { snapshotText($0.data, as: .html).text }
    let dumps = try ChromiumDOM.dumpAll(documents.map(\.data) + canonicalTexts)
    for (position, document) in documents.enumerated() {
      let original = snapshotText(dumps[position], as: .html).text
      let reparsed = snapshotText(dumps[documents.count + position], as: .html).text
      #expect(!dumps[position].isEmpty, "\(document.name): Chromium gave no DOM")
      if let reason = Self.knownDifferences[document.name] {
        #expect(
          original != reparsed,
          "\(document.name) is listed as differing (\(reason)) but keeps its DOM: drop it"
        )
        continue
      }
      #expect(
        original == reparsed,
        """
        \(document.name):
        \(document.data)
        canonical text:
        \(canonicalTexts[position])
        DOM of the original:
        \(original)
        DOM of the canonical text:
        \(reparsed)
        """
      )
    }
  }

  /// The corpus is what `__Fixtures__/html5lib-tests/README.md` says, and every listed
  /// difference names a page of it.
  @Test func theCorpusIsWhole() throws {
    let cases = try Self.files.flatMap {
      try HTML5LibCase.read(Self.folder.appendingPathComponent($0))
    }
    #expect(Self.files.count == 48)
    #expect(cases.count == 1474)
    #expect(cases.filter(\.isFragment).count == 33)
    #expect(cases.filter { !$0.isFragment && $0.scripting == false }.count == 27)
    // The count the MarkupSnapshots article gives; 1,337 of the 1,414 pages keep their DOM.
    #expect(Self.knownDifferences.count == 77)
    #expect(cases.filter(\.isPage).count == 1_414)
    let names = Set(cases.map(\.name))
    for name in Self.knownDifferences.keys {
      #expect(names.contains(name), "\(name) is not a case of the corpus")
      #expect(cases.first { $0.name == name }?.isPage == true, "\(name) is counted out already")
    }
  }

  @Test func aDatFileReadsIntoCases() throws {
    let text = """
      #data
      <p>One
      Two
      #errors
      (1,3): expected-doctype-but-got-start-tag
      #document
      | <html>

      #data
      <td>
      #errors
      #document-fragment
      tr
      #document
      | <td>

      #data
      <noscript>x
      #errors
      #script-off
      #document
      | <html>
      """
    let cases = HTML5LibCase.read(text, file: "sample.dat")
    #expect(cases.map(\.name) == ["sample.dat#1", "sample.dat#2", "sample.dat#3"])
    #expect(cases.map(\.data) == ["<p>One\nTwo", "<td>", "<noscript>x"])
    #expect(cases.map(\.isPage) == [true, false, false])
    #expect(cases[2].scripting == false)
  }
}

/// One `#data` section of an html5lib tree-construction file.
struct HTML5LibCase {
  let file: String
  /// The section's place in its file, from 1.
  let number: Int
  let data: String
  /// Parsed in the context of an element (`#document-fragment`), not as a document.
  var isFragment = false
  /// Whether the expected tree assumes scripting on or off; `nil` when it holds for both.
  var scripting: Bool?

  var name: String { "\(file)#\(number)" }

  /// A whole document as Chromium loads a page: not a fragment, and not a case that needs
  /// scripting off (Chromium runs with scripting on, as a user's page does).
  var isPage: Bool { !isFragment && scripting != false }

  static func read(_ url: URL) throws -> [HTML5LibCase] {
    read(try String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
  }

  /// The sections of a `.dat` file: `#data` lines up to `#errors` (without the last newline),
  /// then the headers that say how the case parses.
  static func read(_ text: String, file: String) -> [HTML5LibCase] {
    var cases: [HTML5LibCase] = []
    var data: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "#data" {
        data = []
      } else if data != nil, line == "#errors" {
        cases.append(
          HTML5LibCase(file: file, number: cases.count + 1, data: data!.joined(separator: "\n"))
        )
        data = nil
      } else if data != nil {
        data!.append(line)
      } else if line == "#document-fragment", !cases.isEmpty {
        cases[cases.count - 1].isFragment = true
      } else if line == "#script-off" || line == "#script-on", !cases.isEmpty {
        cases[cases.count - 1].scripting = line == "#script-on"
      }
    }
    return cases
  }
}
