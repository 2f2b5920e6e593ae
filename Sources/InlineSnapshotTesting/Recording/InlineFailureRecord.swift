import Foundation
import RunRecord

/// An inline assertion's failure as the review tool reads it: a ``FailureRecord`` of kind
/// `inline` that names the call (file, line, column, closure) and holds both texts, so that
/// `snapshot-testing accept` can write the new text into the source, also on another machine.
struct InlineFailureRecord {
  var filePath: String
  var function: String
  var line: Int
  var column: Int
  var syntaxDescriptor: InlineSnapshotSyntaxDescriptor
  var expected: String?
  var actual: String?

  var key: String {
    FailureRecord.inlineRecordKey(
      testFilePath: filePath,
      line: line,
      column: column,
      trailingClosureOffset: syntaxDescriptor.trailingClosureOffset
    )
  }

  /// Saves the failure; returns a note for the failure message when it could not be saved.
  func save(
    _ decision: InlineSnapshotDecision,
    message: String,
    environment: RunEnvironment
  ) -> String? {
    let reason: FailureRecord.Reason
    let headline: String
    let difference: String?
    switch decision {
    case .mismatch(let found, _):
      (reason, headline, difference) = (.mismatch, "Inline snapshot does not match.", found)
    case .missing:
      (reason, headline, difference) = (.missing, "No inline snapshot to compare with.", nil)
    case .recordMissing(let found), .recordAll(let found):
      // Recording failed (the source could not be rewritten): the tool may still apply it.
      (reason, headline, difference) = (
        expected == nil ? .missing : .mismatch, "The inline snapshot could not be recorded.",
        found
      )
    case .pass:
      return nil
    }
    let record = FailureRecord(
      reason: reason,
      kind: .inline,
      pathExtension: "swift",
      testName: function,
      testFilePath: filePath,
      line: line,
      snapshotName: nil,
      referencePath: filePath,
      headline: headline,
      // Bounded as a file snapshot's are; the texts below are whole, for `accept` to write.
      difference: difference.map { DifferenceExcerpt($0, patchPath: nil).text },
      diffToolCommand: nil,
      files: [],
      message: DifferenceExcerpt(message, patchPath: nil).text,
      recordedAt: Date().timeIntervalSince1970,
      inline: FailureRecord.InlineSnapshot(
        column: column,
        trailingClosureLabel: syntaxDescriptor.trailingClosureLabel,
        deprecatedTrailingClosureLabels: syntaxDescriptor.deprecatedTrailingClosureLabels,
        trailingClosureOffset: syntaxDescriptor.trailingClosureOffset,
        expected: expected,
        actual: actual
      )
    )
    do {
      try FailureRecordStore.save(record, in: ArtifactsFolder(environment))
      return nil
    } catch {
      return "\n\nThe failure could not be recorded for review. \(error.description)"
    }
  }

  /// Removes a pending failure of this snapshot: it matched, or was recorded since.
  func clear(environment: RunEnvironment) {
    FailureRecordStore.clear(referencePath: key, in: ArtifactsFolder(environment))
  }
}
