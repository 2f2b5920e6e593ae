import Foundation
import SnapshotTesting
import Testing

@testable import SnapshotReview

/// Word-level highlighting, on its outputs: the segments, `review`'s terminal colours and the
/// report's marks and side-by-side view.
@Suite struct WordDiffTests {
  static let patch = """
    @@ \u{2212}1,3 +1,3 @@
    \u{2007}{
    \u{2212}  "price": 12.5, "name": "Blob"
    +  "price": 13.0, "name": "Blob"
    \u{2007}}

    """

  @Test func onlyTheChangedWordOfAPairedLineIsMarked() throws {
    let diff = try #require(
      WordDiff(
        removed: #"  "price": 12.5, "name": "Blob""#,
        added: #"  "price": 13.0, "name": "Blob""#
      )
    )
    #expect(diff.removed.filter(\.changed).map(\.text) == ["12.5"])
    #expect(diff.added.filter(\.changed).map(\.text) == ["13.0"])
    #expect(diff.removed.map(\.text).joined() == #"  "price": 12.5, "name": "Blob""#)
  }

  @Test func linesWithNothingInCommonAreNotPaired() {
    #expect(WordDiff(removed: "World", added: "there") == nil)
    let long = String(repeating: "a ", count: 600)
    #expect(WordDiff(removed: long, added: long + "b") == nil, "too long to compare")
  }

  @Test func onlyARemovedRunFollowedByAnAddedRunPairs() {
    let paired = PairedPatch(PatchLine.parse(Self.patch))
    #expect(paired.words.keys.sorted() == [2, 3])
    let lonely = PairedPatch(PatchLine.parse("\u{2212}gone a b\n\u{2007}kept\n+new a b\n"))
    #expect(lonely.words.isEmpty)
  }

  @Test func theTerminalShowsColoursAndReversedWordsOnlyWhenAllowed() {
    #expect(TerminalColors.enabled(isTerminal: true, environment: [:]))
    #expect(TerminalColors.enabled(isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!TerminalColors.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(!TerminalColors.enabled(isTerminal: false, environment: [:]))
    let coloured = TerminalColors.colour(Self.patch)
    #expect(coloured.contains("\u{1B}[31m\u{2212}  \"price\": \u{1B}[7m12.5\u{1B}[27m, \"name\""))
    #expect(coloured.contains("\u{1B}[32m+  \"price\": \u{1B}[7m13.0\u{1B}[27m, \"name\""))
    #expect(coloured.contains("\u{1B}[36m@@ \u{2212}1,3 +1,3 @@\u{1B}[0m"))
  }

  @Test func reviewColoursOnlyWhenAskedAndTheAssertionMessageNeverDoes() throws {
    try ReviewFixture.with { fixture in
      try fixture.write(
        Data("Hello\nWorld of Blob\n".utf8),
        to: fixture.reference("testWords.1.txt")
      )
      let message = fixture.verify("Hello\nWorld of Blobby\n", as: .lines, testName: "testWords()")
      #expect(message?.contains("\u{1B}[") == false, "the assertion's message is unchanged")
      #expect(message?.contains("\u{2212}World of Blob\n") == true)
      var (session, console) = fixture.session()
      session.colors = true
      _ = session.review(filters: ["testWords"], interactive: false)
      #expect(
        console.output.contains("\u{1B}[31m\u{2212}World of \u{1B}[7mBlob\u{1B}[27m\u{1B}[0m")
      )
      #expect(console.output.contains("\u{1B}[32m+World of \u{1B}[7mBlobby\u{1B}[27m\u{1B}[0m"))
      let (plain, plainConsole) = fixture.session()
      _ = plain.review(filters: ["testWords"], interactive: false)
      #expect(!plainConsole.output.contains("\u{1B}["))
      #expect(plainConsole.output.contains("\u{2212}World of Blob\n"))
    }
  }

  @Test func theReportMarksChangedWordsAndHasASideBySideView() throws {
    try ReviewFixture.with { fixture in
      try fixture.write(
        Data("Hello\nWorld of Blob\n".utf8),
        to: fixture.reference("testWords.1.txt")
      )
      fixture.verify("Hello\nWorld of Blobby\n", as: .lines, testName: "testWords()")
      let html = HTMLReportTests.render(fixture)
      #expect(html.contains("<span class=\"removed\">\u{2212}World of <del>Blob</del></span>"))
      #expect(html.contains("<span class=\"added\">+World of <ins>Blobby</ins></span>"))
      #expect(
        html.contains(
          "<button type=\"button\" data-view=\"split\" aria-selected=\"false\">Side by side</button>"
        )
      )
      #expect(
        html.contains(
          "<tr><td class=\"removed\">World of <del>Blob</del></td><td class=\"added\">World of <ins>Blobby</ins></td></tr>"
        )
      )
      #expect(
        html.contains("<tr><td class=\"context\">Hello</td><td class=\"context\">Hello</td></tr>")
      )
    }
  }
}

/// The changed values of JSON and property-list documents, by path.
@Suite struct StructuredSummaryTests {
  static let old =
    #"{"items": [{"price": 12.5}, {"price": 1}, {"price": 12.5}], "user": {"name": "Blob", "on": true}, "gone": null}"#
  static let new =
    #"{"items": [{"price": 12.5}, {"price": 1}, {"price": 13.1}], "user": {"name": "Blob", "email": "b@x", "on": false}, "odd key": [1]}"#

  @Test func changesAreListedByPathFromTheDocuments() throws {
    let changes = try #require(
      StructuredSummary.changes(from: Data(Self.old.utf8), to: Data(Self.new.utf8), format: .json)
    )
    #expect(
      changes == [
        "$.gone: removed",
        "$.items[2].price: 12.5 → 13.1",
        #"$["odd key"]: added"#,
        "$.user.email: added",
        "$.user.on: true → false",
      ]
    )
  }

  @Test func aDocumentInvalidOnOneSideHasNoSummary() {
    #expect(
      StructuredSummary.changes(from: Data("{".utf8), to: Data("{}".utf8), format: .json) == nil
    )
    #expect(
      StructuredSummary.changes(from: Data("{}".utf8), to: Data("nope".utf8), format: .json) == nil
    )
  }

  /// An XML property list of `count` and `flag`.
  static func plist(_ value: Int, _ flag: Bool) throws -> Data {
    try PropertyListSerialization.data(
      fromPropertyList: ["count": value, "flag": flag],
      format: .xml,
      options: 0
    )
  }

  @Test func propertyListsToo() throws {
    let changes = StructuredSummary.changes(
      from: try Self.plist(1, true),
      to: try Self.plist(2, true),
      format: .propertyList
    )
    #expect(changes == ["$.count: 1 → 2"])
  }

  @Test func onesAndZerosAreNumbersAndOnlyBooleansReadAsTrueOrFalse() throws {
    let json = StructuredSummary.changes(
      from: Data(#"{"count": 1, "on": true, "ratio": 0}"#.utf8),
      to: Data(#"{"count": 0, "on": false, "ratio": 1.5}"#.utf8),
      format: .json
    )
    #expect(json == ["$.count: 1 → 0", "$.on: true → false", "$.ratio: 0 → 1.5"])
    let propertyList = StructuredSummary.changes(
      from: try Self.plist(1, true),
      to: try Self.plist(0, false),
      format: .propertyList
    )
    #expect(propertyList == ["$.count: 1 → 0", "$.flag: true → false"])
  }

  @Test func longListsAreCut() throws {
    let old = Data(("[" + (0..<80).map(String.init).joined(separator: ",") + "]").utf8)
    let new = Data(("[" + (0..<80).map { String($0 + 1) }.joined(separator: ",") + "]").utf8)
    let changes = try #require(StructuredSummary.changes(from: old, to: new, format: .json))
    #expect(changes.count == StructuredSummary.maximumChanges + 1)
    #expect(changes.last == "… 30 more")
  }

  static let json = SimplySnapshotting<String>(pathExtension: "json", diffing: .lines)

  @Test func reviewAndTheReportListTheChangesBeforeTheDiff() throws {
    try ReviewFixture.with { fixture in
      try fixture.write(Data((Self.old + "\n").utf8), to: fixture.reference("testOrder.1.json"))
      fixture.verify(Self.new + "\n", as: Self.json, testName: "testOrder()")
      let (session, console) = fixture.session()
      _ = session.review(filters: ["testOrder"], interactive: false)
      #expect(
        console.output.contains(
          "  changes:\n    $.gone: removed\n    $.items[2].price: 12.5 → 13.1\n"
        )
      )
      let html = HTMLReportTests.render(fixture)
      #expect(html.contains("<li><code>$.items[2].price: 12.5 → 13.1</code></li>"))
      let (json, jsonConsole) = fixture.session()
      _ = json.review(filters: ["testOrder"], format: .json)
      let document = try JSONValue.parse(jsonConsole.output)
      #expect(schemaViolations(of: document, against: try reviewSchema()).isEmpty)
      let failure = try #require(document["failures"]?.array?.first)
      #expect(failure["changes"]?.array?.first == .string("$.gone: removed"))
    }
  }

  @Test func anInvalidSideShowsTheDiffWithoutASummary() throws {
    try ReviewFixture.with { fixture in
      try fixture.write(Data("{\"a\": 1,\n".utf8), to: fixture.reference("testOrder.1.json"))
      fixture.verify("{\"a\": 2}\n", as: Self.json, testName: "testOrder()")
      let (session, console) = fixture.session()
      _ = session.review(filters: ["testOrder"], interactive: false)
      #expect(!console.output.contains("changes:"))
      #expect(console.output.contains("+{\"a\": 2}"))
      let html = HTMLReportTests.render(fixture)
      #expect(!html.contains("class=\"changes\""))
      #expect(html.contains("<span class=\"added\">+{&quot;a&quot;: <ins>2}</ins></span>"))
    }
  }
}
