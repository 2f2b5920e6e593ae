import Foundation
import RunRecord
import Testing

@_spi(Internals) @testable import SnapshotTesting
@testable import InlineSnapshotTesting

/// A temporary copy of a test source that assertions record into as `"Fixture.swift"`.
///
/// Assertions in these tests pass `file: "Fixture.swift"` and the line and column of a call in
/// the copy; a private store reads and writes the copy instead, and `writePending()` stands in
/// for the end of the test process.
final class FixtureRun: @unchecked Sendable {
  static let fileName: StaticString = "Fixture.swift"

  let folder: URL
  let url: URL
  let store: InlineSnapshotStore

  init(source: String) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("InlineSnapshotTestingTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    url = folder.appendingPathComponent("Fixture.swift")
    try Data(source.utf8).write(to: url)
    store = InlineSnapshotStore(redirectingPaths: ["\(Self.fileName)": url.path])
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Runs assertions against the copy, with only the given environment variables set.
  /// Failure records go to the fixture's own folder unless the environment names another, so
  /// that the tests leave nothing in the system's temporary folder.
  func run<R>(environment: RunEnvironment = [:], _ body: () throws -> R) rethrows -> R {
    var environment = environment
    if environment[.artifacts] == nil {
      environment[.artifacts] = folder.appendingPathComponent("artifacts").path
    }
    return try RunEnvironment.withOverride(environment) {
      try TestHooks.with(InlineSnapshotStore.Private.self, store) {
        try GlobalConfiguration.withPrivateInstance {
          try body()
        }
      }
    }
  }

  /// Writes what the assertions recorded, as the end of the process would.
  @discardableResult
  func writePending() -> [InlineSnapshotWriteError] { store.writePending() }

  /// The copy's current text.
  func text() throws -> String { try String(contentsOf: url, encoding: .utf8) }
}

/// Collects the comments of the issues that a `withKnownIssue` block records.
final class IssueLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [(message: String, line: Int)] = []

  func append(_ issue: Issue) {
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    lock.withLock { entries.append((message, issue.sourceLocation?.line ?? 0)) }
  }

  var messages: [String] { lock.withLock { entries.map(\.message) } }
  var lines: [Int] { lock.withLock { entries.map(\.line) } }
}

/// Runs `body`, which must record at least one issue, and returns the issues' messages.
func expectIssues(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () -> Void
) -> IssueLog {
  let log = IssueLog()
  Testing.withKnownIssue(sourceLocation: sourceLocation) {
    body()
  } matching: { issue in
    log.append(issue)
    return true
  }
  return log
}
