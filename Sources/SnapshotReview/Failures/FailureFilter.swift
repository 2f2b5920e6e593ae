import Foundation

/// Selects pending failures by what a user can type: part of a test name, of a snapshot name, of
/// a reference path or of a test file's path.
///
/// A relative path is also tried against the package root, so that
/// `Tests/AppTests/__Snapshots__/UserTests/testUser.1.txt` selects that reference exactly.
package struct FailureFilter: Sendable {
  package var patterns: [String]
  package var packageRoot: URL

  package init(_ patterns: [String], packageRoot: URL) {
    self.patterns = patterns
    self.packageRoot = packageRoot
  }

  /// Whether `failure` matches any pattern; an empty filter matches everything.
  package func matches(_ failure: PendingFailure) -> Bool {
    patterns.isEmpty || patterns.contains { matches(failure, $0) }
  }

  /// The patterns that matched no failure in `failures`, to name them in a warning.
  package func unmatchedPatterns(in failures: [PendingFailure]) -> [String] {
    patterns.filter { pattern in !failures.contains { matches($0, pattern) } }
  }

  private func matches(_ failure: PendingFailure, _ pattern: String) -> Bool {
    guard !pattern.isEmpty else { return false }
    let record = failure.record
    var candidates = [record.testName, record.referencePath, record.testFilePath]
    if let name = record.snapshotName { candidates.append(name) }
    if let reference = failure.referenceURL { candidates.append(reference.path) }
    if candidates.contains(where: { $0.contains(pattern) }) { return true }
    if failure.isInline, let colon = pattern.lastIndex(of: ":"),
      Int(pattern[pattern.index(after: colon)...]) == record.line
    {
      // `Tests/AppTests/UserTests.swift:12`: the inline snapshot on that line of that file.
      let file = String(pattern[..<colon])
      let absolute =
        file.hasPrefix("/") ? file : packageRoot.appendingPathComponent(file).path
      let testFile = failure.referenceURL?.path ?? record.testFilePath
      return URL(fileURLWithPath: absolute).standardizedFileURL.path
        == URL(fileURLWithPath: testFile).standardizedFileURL.path
    }
    guard !pattern.hasPrefix("/") else { return false }
    let absolute = packageRoot.appendingPathComponent(pattern).standardizedFileURL.path
    return failure.referenceURL?.standardizedFileURL.path == absolute
      || URL(fileURLWithPath: record.testFilePath).standardizedFileURL.path == absolute
  }
}
