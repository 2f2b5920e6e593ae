import Foundation
import RunRecord
import TestSupport
import Testing

@_spi(Internals) @testable import SnapshotTesting
@testable import InlineSnapshotTesting

/// The output the Reviewing article shows is what the tool prints: each test makes the failures
/// the article describes, with the article's names and lines, runs the built `snapshot-testing`
/// as a reader would, and compares its output with the article's text.
@Suite struct DocumentedReviewOutputTests {
  static let article = "Sources/SnapshotTesting/Documentation.docc/Reviewing.md"
  let tool = ExecutableTests()

  /// The package of the article's examples: `Tests/AppTests/GreetingTests.swift`, whose tests
  /// ran on a CI runner checked out at `/home/runner/work/App/App` (the paths the records hold),
  /// and whose artifacts are in `.snapshot-artifacts`, as the article sets them up.
  struct App {
    let root: URL
    var artifacts: URL { root.appendingPathComponent(".snapshot-artifacts") }
    var snapshots: URL {
      root.appendingPathComponent("Tests/AppTests/__Snapshots__/GreetingTests")
    }
    var testFile: URL { root.appendingPathComponent("Tests/AppTests/GreetingTests.swift") }

    static func with(_ body: (App) throws -> Void) throws {
      let base = FileManager.default.temporaryDirectory
        .appendingPathComponent("DocumentedReviewOutput-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: base) }
      let app = App(root: base.appendingPathComponent("App"))
      try FileManager.default.createDirectory(at: app.snapshots, withIntermediateDirectories: true)
      try Data("// swift-tools-version:6.0\n".utf8)
        .write(to: app.root.appendingPathComponent("Package.swift"))
      try body(app)
    }

    /// Writes the test file: `lines` numbered from 1, blank where not given.
    func writeTestFile(_ lines: [Int: String]) throws {
      let count = (lines.keys.max() ?? 0) + 2
      let text = (1...count).map { lines[$0] ?? "" }.joined(separator: "\n")
      try Data(text.utf8).write(to: testFile)
    }
  }

  /// The first "[1/…]" entry of `review`'s listing, and the `--format github` and `--json`
  /// outputs, for the three failures of GreetingTests: a mismatch at line 12, a mismatch and a
  /// missing reference after it.
  @Test func reviewListsAFileFailureAsTheArticleShows() throws {
    try App.with { app in
      try app.writeTestFile([
        12: #"    assertSnapshot(of: greeting(), as: .lines)"#,
        18: #"    assertSnapshot(of: farewell(), as: .lines, named: "farewell")"#,
        24: #"    assertSnapshot(of: fresh(), as: .lines)"#,
      ])
      try Data("Hello\nWorld".utf8)
        .write(to: app.snapshots.appendingPathComponent("testGreeting.1.txt"))
      try Data("Goodbye\nfor now".utf8)
        .write(to: app.snapshots.appendingPathComponent("testFarewell.farewell.txt"))
      RunEnvironment.withOverride([.artifacts: app.artifacts.path]) {
        let file: StaticString = "/home/runner/work/App/App/Tests/AppTests/GreetingTests.swift"
        _ = verifySnapshot(
          of: "Hello\nthere", as: .lines, record: .never, snapshotDirectory: app.snapshots.path,
          file: file, testName: "testGreeting()", line: 12)
        _ = verifySnapshot(
          of: "Goodbye\nsee you", as: .lines, named: "farewell", record: .never,
          snapshotDirectory: app.snapshots.path, file: file, testName: "testFarewell()", line: 18)
        _ = verifySnapshot(
          of: "brand new", as: .lines, record: .never, snapshotDirectory: app.snapshots.path,
          file: file, testName: "testFresh()", line: 24)
      }
      let environment = ["SNAPSHOT_ARTIFACTS": app.artifacts.path]

      let listed = try tool.run(["review", "--list"], in: app.root, environment: environment)
      let shown = try codeBlock(in: Self.article, after: "and the command that accepts\njust that one:")
      #expect(entry(1, of: listed.output) == shown, "\(listed.output)")

      let github = try tool.run(
        ["review", "--format", "github", "--artifacts", ".snapshot-artifacts"],
        in: app.root, environment: environment)
      let annotation = try codeBlock(
        in: Self.article, after: "review --format github --artifacts .snapshot-artifacts\n```")
      let firstLine = github.output.split(separator: "\n").first.map(String.init) ?? ""
      // The article cuts the line where the paths of the reader's machine begin.
      let shownPrefix = String(annotation.prefix { $0 != "…" })
      #expect(annotation.hasSuffix("…") && firstLine.hasPrefix(shownPrefix), "\(github.output)")

      let json = try tool.run(
        ["review", "--json", "--artifacts", ".snapshot-artifacts"], in: app.root,
        environment: environment)
      let document = try JSONValue.parse(json.output)
      let shownJSON = try JSONValue.parse(
        try codeBlock(in: Self.article, after: "a\nfield without a value is `null`, never left out:"))
      let greeting = try #require(
        document["failures"]?.array?.first { $0["test"] == .string("testGreeting()") })
      let shownGreeting = try #require(shownJSON["failures"]?.array?.first)
      #expect(keys(of: greeting) == keys(of: shownGreeting))
      #expect(keys(of: document) == keys(of: shownJSON))
      for key in [
        "acceptCommand", "changes", "difference", "headline", "inline", "kind", "line", "reason",
        "referenceLocated", "snapshotName", "test",
      ] {
        #expect(greeting[key] == shownGreeting[key], "\(key)")
      }
      let file = greeting["file"]?.string ?? ""
      #expect(file.hasSuffix("/Tests/AppTests/GreetingTests.swift"), "\(file)")
    }
  }

  /// The article's inline failure: `testGreeting()`'s trailing closure on line 12 no longer
  /// matches what the test greets.
  @Test func reviewListsAnInlineFailureAsTheArticleShows() throws {
    try App.with { app in
      let call = #"    assertInlineSnapshot(of: greeting(), as: .lines) {"#
      try app.writeTestFile([
        11: "  @Test func testGreeting() {",
        12: call,
        13: #"      """"#,
        14: "      Hello, Blobby!",
        15: #"      """"#,
        16: "    }",
        17: "  }",
      ])
      let column = UInt(call.firstIndex(of: "a")!.utf16Offset(in: call) + 1)
      let store = InlineSnapshotStore(redirectingPaths: ["GreetingTests.swift": app.testFile.path])
      RunEnvironment.withOverride([.artifacts: app.artifacts.path, .continuousIntegration: "true"]) {
        TestHooks.with(InlineSnapshotStore.Private.self, store) {
          GlobalConfiguration.withPrivateInstance {
            withKnownIssue {
              assertInlineSnapshot(
                of: "Hello, Blob!", as: .lines, matches: { "Hello, Blobby!" },
                file: "GreetingTests.swift", function: "testGreeting()", line: 12, column: column)
            }
          }
        }
      }
      #expect(store.writePending().isEmpty)
      let listed = try tool.run(
        ["review", "--list"], in: app.root, environment: ["SNAPSHOT_ARTIFACTS": app.artifacts.path])
      let shown = try codeBlock(
        in: Self.article, after: "list it with its\ndiff, named by its test file and line:")
      #expect(entry(1, of: listed.output) == shown, "\(listed.output)")
    }
  }

  private func keys(of value: JSONValue) -> [String] {
    if case .object(let object) = value { return object.keys.sorted() }
    return []
  }

  /// The `index`th entry of a `review` listing: from its "[index/" line to the last indented
  /// line before the next entry or the closing lines.
  private func entry(_ index: Int, of output: String) -> String? {
    guard let start = output.range(of: "[\(index)/") else { return nil }
    var lines = output[start.lowerBound...].components(separatedBy: "\n")
    let end = lines.dropFirst().firstIndex { !$0.isEmpty && !$0.hasPrefix(" ") } ?? lines.count
    lines = Array(lines[..<end])
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n")
  }
}
