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
  let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let article = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  let start = try #require(article.range(of: marker), "\(path) no longer says “\(marker)”")
  let rest = article[start.upperBound...]
  let open = try #require(rest.range(of: "```\n"))
  let close = try #require(rest[open.upperBound...].range(of: "\n```"))
  return String(rest[open.upperBound..<close.lowerBound])
}
