import Foundation
import RunRecord
import SnapshotTesting
import Testing

/// The output the articles show is what a run prints: each test makes the failure an article
/// shows, with the article's names, and compares the message with the article's text (paths
/// that depend on the machine written as the article writes them).
@Suite struct DocumentedOutputTests {
  private struct User: Codable {
    var id: Int
    var name: String
    var bio: String
  }

  @Test func gettingStartedShowsTheFailureARunPrints() throws {
    let shown = try codeBlock(
      in: "Sources/SnapshotTesting/Documentation.docc/GettingStarted.md",
      after: "When it does, the failure shows a diff:")
    try withTemporaryDirectory { root in
      let references = root.appendingPathComponent("Tests/MyAppTests/__Snapshots__/UserTests")
      try FileManager.default.createDirectory(at: references, withIntermediateDirectories: true)
      let reference = #"""
        {
          "bio" : "Blobbed around the world.",
          "id" : 1,
          "name" : "Blobby"
        }
        """#
      try Data(reference.utf8).write(to: references.appendingPathComponent("user.1.json"))
      let artifacts = root.appendingPathComponent("artifacts")
      let user = User(id: 1, name: "Blob", bio: "Blobbed around the world.")
      let message = RunEnvironment.withOverride([.artifacts: artifacts.path]) {
        verifySnapshot(of: user, as: .json, snapshotDirectory: references.path, testName: "user")
      }
      let printed = try #require(message)
        .replacingOccurrences(of: "file://\(root.path)/Tests", with: "file:///…/Tests")
        .replacingOccurrences(of: "file://\(artifacts.path)/", with: "file:///tmp/")
      #expect(printed == shown)
    }
  }
}

/// The text of the first fenced code block after `marker` in the article at `path` (from the
/// package's root).
private func codeBlock(in path: String, after marker: String) throws -> String {
  let article = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  let start = try #require(article.range(of: marker), "\(path) no longer says “\(marker)”")
  let rest = article[start.upperBound...]
  let open = try #require(rest.range(of: "```\n"))
  let close = try #require(rest[open.upperBound...].range(of: "\n```"))
  return String(rest[open.upperBound..<close.lowerBound])
}

/// References an article shows as the package's own: each block is the reference file a test
/// (or an example package's test) recorded and checks, byte for byte.
@Suite struct DocumentedReferenceTests {
  struct Shown: Sendable, CustomTestStringConvertible {
    var article: String
    var marker: String
    var reference: String
    var testDescription: String { reference.split(separator: "/").suffix(2).joined(separator: "/") }
  }

  static let command = "Sources/CommandSnapshotTesting/Documentation.docc/CommandSnapshots.md"
  static let commandReferences =
    "Tests/CommandSnapshotTestingTests/__Snapshots__/ArgumentParserToolTests"
  static let transcripts = "Sources/TranscriptSnapshotTesting/Documentation.docc/Transcripts.md"

  static let shown: [Shown] = [
    Shown(
      article: command, marker: "`help.1.txt`:", reference: "\(commandReferences)/help.1.txt"),
    Shown(
      article: command, marker: "`unknownOption.1.txt`, where",
      reference: "\(commandReferences)/unknownOption.1.txt"),
    Shown(
      article: command, marker: "and `confirm.1.txt`,",
      reference: "\(commandReferences)/confirm.1.txt"),
    Shown(
      article: transcripts, marker: "Its reviewed reference:",
      reference:
        "Examples/HummingbirdTodos/Tests/TodosTests/__Snapshots__/TodosTests/transcriptOfAGet.1.txt"
    ),
  ]

  @Test(arguments: shown)
  func theArticleShowsTheReferenceAsRecorded(_ shown: Shown) throws {
    let block = try codeBlock(in: shown.article, after: shown.marker)
    let reference = try String(
      contentsOf: packageRoot.appendingPathComponent(shown.reference), encoding: .utf8)
    // A code block cannot end in a newline; a reference may.
    #expect(block == reference || block + "\n" == reference)
  }
}

/// The package's root folder (this file is `Tests/SnapshotTestingTests/Documentation/…`).
private let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
