import Foundation
import RunRecord
import SnapshotTesting
import TestSupport
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
      after: "When the value changes, the failure shows a diff:")
    try withTemporaryDirectory { root in
      let references = root.appendingPathComponent("Tests/MyLibraryTests/__Snapshots__/UserTests")
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
        "Examples/ServerTodos/Tests/TodosTests/__Snapshots__/TodosTests/transcriptOfAGet.1.txt"
    ),
    Shown(
      article: transcripts, marker: "through Fluent on PostgreSQL, so configured, records:",
      reference:
        "Examples/ServerTodos/Tests/TodoDatabaseTests/__Snapshots__/StatementTranscriptTests/fluentOnPostgreSQL.1.txt"
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

/// Code an article shows as compiled in an example package: the article's block holds the
/// example file's code from `start` on, as the example compiles and runs it.
@Suite struct DocumentedExampleCodeTests {
  static let http = "Sources/HTTPSnapshotTesting/Documentation.docc/HTTPSnapshots.md"

  @Test(arguments: [
    (
      "Hummingbird's `TestResponse` already holds",
      "Examples/ServerTodos/Tests/TodosTests/TestResponse+HTTP.swift"
    ),
    (
      "Vapor's test responses",
      "Examples/ServerTodos/Tests/VaporTodosTests/TestingHTTPResponse+HTTP.swift"
    ),
  ])
  func theArticleShowsTheExamplesCode(marker: String, example: String) throws {
    let block = try codeBlock(in: Self.http, after: marker)
    let file = try String(contentsOf: packageRoot.appendingPathComponent(example), encoding: .utf8)
    let code = try #require(file.range(of: "extension Snapshotting")).lowerBound
    #expect(block.contains(file[code...].trimmingCharacters(in: .newlines)))
  }
}
