import Foundation

/// Selects pending failures by what a user can type: part of a test name, of a snapshot name, of
/// a reference path or of a test file's path.
///
/// A relative path is also tried against the package root, so that
/// `Tests/AppTests/__Snapshots__/UserTests/testUser.1.txt` selects that reference exactly. The
/// location a failure printed, `<test file>:<line>` (with or without a column, the file absolute,
/// relative to the package, or only its name as Swift Testing prints it), selects the snapshots
/// asserted on that line, inline or not.
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
    if let (file, line) = Self.location(pattern) {
      guard line == record.line else { return false }
      // `Tests/AppTests/UserTests.swift:12`: the snapshot asserted on that line of that file.
      let testFile = URL(fileURLWithPath: failure.testFilePath).standardizedFileURL.path
      if !file.contains("/") { return URL(fileURLWithPath: testFile).lastPathComponent == file }
      let absolute =
        file.hasPrefix("/") ? file : packageRoot.appendingPathComponent(file).path
      return URL(fileURLWithPath: absolute).standardizedFileURL.path == testFile
    }
    guard !pattern.hasPrefix("/") else { return false }
    let absolute = packageRoot.appendingPathComponent(pattern).standardizedFileURL.path
    return failure.referenceURL?.standardizedFileURL.path == absolute
      || URL(fileURLWithPath: record.testFilePath).standardizedFileURL.path == absolute
  }

  /// `File.swift:12` or `File.swift:12:5` as a file and a line, or `nil` when `pattern` is not a
  /// Swift file's location.
  private static func location(_ pattern: String) -> (file: String, line: Int)? {
    var parts = pattern.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count >= 3, Int(parts[parts.count - 1]) != nil, Int(parts[parts.count - 2]) != nil {
      parts.removeLast()  // the column
    }
    guard parts.count >= 2, let line = Int(parts[parts.count - 1]), line > 0 else { return nil }
    let file = parts.dropLast().joined(separator: ":")
    guard file.hasSuffix(".swift") else { return nil }
    return (file, line)
  }
}
