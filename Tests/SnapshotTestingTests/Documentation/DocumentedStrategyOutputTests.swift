import Foundation
import RunRecord
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@testable import SnapshotTesting

/// The snapshots the Strategies article shows are what the strategies write: each test runs the
/// article's value through the strategy and compares the text with the article's block.
@Suite struct DocumentedStrategyOutputTests {
  static let article = "Sources/SnapshotTesting/Documentation.docc/Strategies.md"

  struct User: Encodable {
    let id: Int, name: String, bio: String
  }
  let user = User(id: 1, name: "Blobby", bio: "Blobbed around the world.")

  /// The article's subscription request, which `.raw` and `.curl` show.
  static var subscribe: URLRequest {
    var request = URLRequest(url: URL(string: "https://www.pointfree.co/subscribe")!)
    request.httpMethod = "POST"
    request.addValue("text/html", forHTTPHeaderField: "Accept")
    request.addValue(#"pf_session={"user_id":"0"}"#, forHTTPHeaderField: "Cookie")
    request.httpBody = Data("pricing[billing]=monthly&pricing[lane]=individual".utf8)
    return request
  }

  enum Direction: CaseIterable {
    case up, down, left, right
    var rotatedLeft: Direction {
      switch self {
      case .up: .left
      case .down: .right
      case .left: .down
      case .right: .up
      }
    }
  }

  /// A code block cannot end in a newline; a snapshot may.
  func expect(_ snapshot: (text: String, failure: String?), shownAfter marker: String) throws {
    let block = try codeBlock(in: Self.article, after: marker)
    #expect(snapshot.failure == nil)
    #expect(snapshot.text == block || snapshot.text == block + "\n")
  }

  @Test func dump() throws {
    try expect(snapshotText(user, as: .dump), shownAfter: "as: .dump)\n```")
  }

  @Test func description() throws {
    try expect(
      snapshotText(user, as: .description),
      shownAfter: "as: .description)\n```"
    )
  }

  @Test func json() throws {
    try expect(snapshotText(user, as: .json), shownAfter: "as Foundation writes them. No trailing")
  }

  @Test func plist() throws {
    struct Identified: Encodable { let id: Int }
    try expect(
      snapshotText(Identified(id: 1), as: .plist),
      shownAfter: "with tab indentation and sorted keys, ending in a newline:"
    )
  }

  @Test func raw() throws {
    try expect(snapshotText(Self.subscribe, as: .raw), shownAfter: "## `.raw` and `.raw(pretty:)`")
  }

  @Test func curl() throws {
    try expect(snapshotText(Self.subscribe, as: .curl), shownAfter: "## `.curl`")
  }

  @Test func function() throws {
    try expect(
      snapshotText(
        { (direction: Direction) in direction.rotatedLeft },
        as: Snapshotting<Direction, String>.func(into: .description)
      ),
      shownAfter: ".func(into: .description)\n)\n```"
    )
  }
}

/// The Scrubbing article's "before:"/"after:" blocks: the scrubber turns the one into the other.
@Suite struct DocumentedScrubberOutputTests {
  static let article = "Sources/SnapshotTesting/Documentation.docc/Scrubbing.md"

  /// The before and after texts of a block: lines up to "after:" are the text before, the rest
  /// the text after, each without the 8 columns of "before: " or "after:  ".
  func beforeAndAfter(shownAfter marker: String) throws -> (before: String, after: String) {
    let lines = try codeBlock(in: Self.article, after: marker)
      .split(separator: "\n", omittingEmptySubsequences: false)
    let split = try #require(lines.firstIndex { $0.hasPrefix("after:") })
    func text(_ part: ArraySlice<Substring>) -> String {
      part.map { String($0.dropFirst(8)) }.joined(separator: "\n")
    }
    return (text(lines[..<split]), text(lines[split...]))
  }

  @Test(arguments: [
    ("### `.uuids`", Scrubber.uuids),
    ("### `.iso8601Dates`", .iso8601Dates),
    ("### `.memoryAddresses`", .memoryAddresses),
    ("with: \"took <duration>\"))\n```", .replacing(#/took \d+ ms/#, with: "took <duration>")),
    // `NSTemporaryDirectory()` is "/tmp/" where the article's block was written.
    ("with: \"$TMP/\"))\n```", .replacing("/tmp/", with: "$TMP/")),
  ])
  func theScrubberTurnsBeforeIntoAfter(marker: String, scrubber: Scrubber) throws {
    let shown = try beforeAndAfter(shownAfter: marker)
    #expect(try scrubber.scrub(shown.before) == shown.after)
  }

  @Test func aScrubberThatBreaksJSONIsNamed() throws {
    let shown = try codeBlock(
      in: Self.article,
      after: "says that nothing was compared or recorded):"
    )
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let strategy = Snapshotting<[String: String], String>.json
        .scrubbing(.replacing(#/"Blob"/#, with: "<name>"))
      let message = try #require(sandbox.verify(["name": "Blob"], as: strategy, record: .all))
      #expect(firstParagraph(message) == shown)
    }
  }
}

/// A failure message's first paragraph, which the articles show on its own when the rest says
/// only that nothing was compared or recorded.
func firstParagraph(_ message: String?) -> String? {
  message.map { $0.components(separatedBy: "\n\n")[0] }
}

/// The failures the Redaction, Variants, Record modes and Folder snapshots articles show are
/// what an assertion reports.
@Suite struct DocumentedFailureMessageTests {
  static let docc = "Sources/SnapshotTesting/Documentation.docc"

  @Test func redactionSelectorFailures() throws {
    let shown = try codeBlock(in: "\(Self.docc)/Redaction.md", after: "where the error is.")

    let unmatched = try codeBlock(in: "\(Self.docc)/Redaction.md", after: "reach into it.")
      .split(separator: "\n").map(String.init)
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let document = ["meta": ["requestID": 1]]
      let syntax = sandbox.verify(document, as: .json(redacting: ["items[*.id"]), record: .all)
      #expect(firstParagraph(syntax) == shown)
      let missing = sandbox.verify(
        document,
        as: .json(redacting: ["meta.requestId"]),
        record: .all
      )
      #expect(firstParagraph(missing) == unmatched.first)
      let inArray = sandbox.verify([["id": 1]], as: .json(redacting: ["name"]), record: .all)
      #expect(firstParagraph(inArray) == unmatched.last)
    }
  }

  @Test func aVariantThatCannotNameAFile() throws {
    let shown = try codeBlock(in: "\(Self.docc)/Variants.md", after: "writes nothing:\n")
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let message = withSnapshotTesting(record: .all, variant: .custom("fr FR")) {
        sandbox.verify("a", as: .lines)
      }
      #expect(message == shown)
    }
  }

  /// In a package's `Tests/AppTests`, with the artifacts folder the article's paths show as
  /// `/tmp`.
  @Test func aMissingReferenceOnCI() throws {
    let shown = try codeBlock(
      in: "\(Self.docc)/RecordModesAndCI.md",
      after: "the assertion fails with"
    )
    try withTemporaryDirectory { root in
      let references = root.appendingPathComponent("Tests/AppTests/__Snapshots__/UserTests")
      let artifacts = root.appendingPathComponent("artifacts")
      let environment: RunEnvironment = [
        .continuousIntegration: "true", .artifacts: artifacts.path,
      ]
      let message = RunEnvironment.withOverride(environment) {
        verifySnapshot(
          of: "x",
          as: .lines,
          snapshotDirectory: references.path,
          testName: "testUser()"
        )
      }
      let printed = try #require(message)
        .replacingOccurrences(of: references.path, with: "…/__Snapshots__/UserTests")
        .replacingOccurrences(of: artifacts.path, with: "/tmp")
      #expect(printed == shown)
    }
  }

  @Test func aFolderThatDiffers() throws {
    let shown = try codeBlock(
      in: "\(Self.docc)/DirectorySnapshots.md",
      after: "### What a failure says"
    )
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let old = [
        "css/old.css": Data("h1 { color: blue }".utf8),
        "index.html": Data("<h1>Hello</h1>\n<p>old</p>".utf8),
      ]
      _ = sandbox.verify(old, as: .directory, named: "site", record: .all)
      let new = [
        "css/new.css": Data("h1 { color: red }".utf8),
        "index.html": Data("<h1>Hello</h1>\n<p>new</p>".utf8),
      ]
      let message = try #require(sandbox.verify(new, as: .directory, named: "site"))
      // The article shows the difference, which ends the message and is the saved patch.
      let patch = contents(of: sandbox.artifact("sandbox.site.difference.patch"))
      #expect(patch == shown)
      #expect(message.hasSuffix("\n\n" + shown))
    }
  }
}
