import Foundation
import InlineSnapshotRewriter
import RunRecord

/// Accepting inline snapshots: their test files are rewritten by the same rewriter that
/// `assertInlineSnapshot` records with, so the result is byte for byte a local recording's.
enum InlineAcceptance {
  /// The largest test file rewritten: 16 MiB. A larger one was not written by a person.
  static let maximumSourceSize = 16 << 20

  /// Accepts `failures` (all inline), one rewrite per test file. A failure whose snapshot the
  /// source no longer holds as the run saw it is refused and named, and the others of its file
  /// are still written. Returns each failure's error, `nil` when it was accepted.
  static func accept(_ failures: [PendingFailure]) -> [ResolutionError?] {
    var results = [ResolutionError?](repeating: nil, count: failures.count)
    var byFile: [String: [Int]] = [:]
    var order: [String] = []
    for (index, failure) in failures.enumerated() {
      if let error = precondition(failure) {
        results[index] = error
        continue
      }
      let path = failure.referenceURL?.path ?? failure.record.testFilePath
      if byFile[path] == nil { order.append(path) }
      byFile[path, default: []].append(index)
    }
    for path in order {
      let indices = byFile[path] ?? []
      for (index, error) in zip(indices, rewrite(path, failures: indices.map { failures[$0] })) {
        results[index] = error
      }
    }
    for (index, failure) in failures.enumerated() where results[index] == nil {
      failure.removeRecords()
    }
    return results
  }

  private static func precondition(_ failure: PendingFailure) -> ResolutionError? {
    if let refusal = failure.artifactsRefusal ?? failure.acceptRefusal {
      return ResolutionError(description: refusal)
    }
    guard failure.referenceURL != nil, failure.record.inline != nil else {
      return ResolutionError(
        description: """
          Cannot accept "\(failure.record.testName)": its test file \
          "\(failure.record.testFilePath)" is not in the package.
          """
      )
    }
    return nil
  }

  /// Writes the failures' snapshots into the file at `path` in one pass; returns each one's
  /// error.
  private static func rewrite(_ path: String, failures: [PendingFailure]) -> [ResolutionError?] {
    let name = failures.first?.record.testName ?? ""
    let source: String
    let byteOrderMark: Bool
    do {
      (source, byteOrderMark) = try readSource(path)
    } catch {
      return failures.map { _ in error }
    }
    var results: [ResolutionError?] = []
    var changes: [InlineSnapshotChange] = []
    for failure in failures {
      var change = self.change(for: failure)
      // The local file may have changed since the run: the call at the recorded place must be
      // in the recorded test, or that test's assertion is found by its expected text.
      switch placement(of: change, recordedIn: failure.record.testName, in: source) {
      case .asRecorded:
        break
      case .moved(let line, let column):
        (change.line, change.column) = (line, column)
      case .refused(let reason):
        results.append(
          ResolutionError(
            description: """
              Refusing to accept "\(failure.record.testName)" at \(path):\(change.line): \(reason)
              """
          )
        )
        continue
      }
      if let refusal = refusal(of: change, in: source) {
        results.append(
          ResolutionError(
            description: """
              Refusing to accept "\(failure.record.testName)" at \(path):\(change.line): \
              \(refusal)
              """
          )
        )
      } else if let same = changes.first(where: {
        $0.line == change.line && $0.column == change.column
          && $0.trailingClosureOffset == change.trailingClosureOffset
      }) {
        // Two records of one snapshot in one batch: the same text is written once.
        results.append(
          same.actual == change.actual
            ? nil
            : ResolutionError(
              description: """
                Refusing to accept "\(failure.record.testName)" at \(path):\(change.line): \
                another failure record of the same snapshot, accepted with it, has a different \
                text. Accept one of them by itself.
                """
            )
        )
      } else {
        changes.append(change)
        results.append(nil)
      }
    }
    guard !changes.isEmpty else { return results }
    do {
      let rewritten = try applyInlineSnapshots(changes, to: source)
      if rewritten != source {
        // The bytes outside the closures stay as they were, a byte-order mark included, as
        // when the test run records them itself.
        let mark: [UInt8] = byteOrderMark ? [0xEF, 0xBB, 0xBF] : []
        try AtomicFile.write(Data(mark + Array(rewritten.utf8)), to: URL(fileURLWithPath: path))
      }
      return results
    } catch {
      let failed = ResolutionError(
        description: """
          Cannot accept "\(name)": rewriting "\(path)" failed (\(error)). The file is unchanged.
          """
      )
      return results.map { $0 ?? failed }
    }
  }

  private static func change(for failure: PendingFailure) -> InlineSnapshotChange {
    let inline = failure.record.inline
    return InlineSnapshotChange(
      line: failure.record.line,
      column: inline?.column ?? 0,
      trailingClosureLabel: inline?.trailingClosureLabel ?? "matches",
      deprecatedTrailingClosureLabels: inline?.deprecatedTrailingClosureLabels ?? [],
      trailingClosureOffset: inline?.trailingClosureOffset ?? 0,
      expected: inline?.expected,
      actual: inline?.actual
    )
  }

  /// The file's text, and whether it starts with a UTF-8 byte-order mark, which is taken off the
  /// text here (the rewriter sees what the compiler sees) and written back by the caller.
  private static func readSource(
    _ path: String
  ) throws(ResolutionError) -> (text: String, byteOrderMark: Bool) {
    var data: Data
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      data = try handle.read(upToCount: maximumSourceSize + 1) ?? Data()
    } catch {
      throw ResolutionError(
        description: """
          Cannot accept inline snapshots in "\(path)": it could not be read \
          (\(SnapshotFileError.reason(of: error))).
          """
      )
    }
    let byteOrderMark = data.starts(with: [0xEF, 0xBB, 0xBF])
    if byteOrderMark { data = data.dropFirst(3) }
    guard data.count <= maximumSourceSize, let text = String(data: data, encoding: .utf8) else {
      throw ResolutionError(
        description: """
          Cannot accept inline snapshots in "\(path)": it is not UTF-8 text of at most \
          \(maximumSourceSize) bytes.
          """
      )
    }
    return (text, byteOrderMark)
  }
}
