import Foundation
import RunRecord

/// What review tools need to know about a failure beyond where it happened.
struct FailureSummary {
  var reason: FailureRecord.Reason
  var headline: String
  var difference: String? = nil
  var diffToolCommand: String? = nil
  var message: String
}

/// Step 3, on failure: leaves the failure for review tools (`snapshot-testing review`), replacing
/// an earlier failure of the same reference. Returns the message, with a note if that failed.
func saveFailureRecord<Format>(
  _ summary: FailureSummary,
  artifacts saved: SavedArtifacts,
  diffing: Diffing<Format>,
  assertion: ResolvedAssertion
) -> String {
  let context = assertion.context
  let record = FailureRecord(
    reason: summary.reason,
    kind: diffing.reviewKind ?? (Format.self == String.self ? .text : .data),
    pathExtension: assertion.pathExtension,
    testName: context.testName,
    testFilePath: context.filePath,
    line: Int(context.line),
    snapshotName: context.name,
    referencePath: assertion.referencePath,
    headline: summary.headline,
    difference: summary.difference,
    diffToolCommand: summary.diffToolCommand,
    files: saved.files,
    message: summary.message,
    recordedAt: Date().timeIntervalSince1970
  )
  do {
    try FailureRecordStore.save(record, in: assertion.artifacts)
    return summary.message
  } catch {
    return summary.message
      + "\n\nThe failure could not be recorded for review. \(error.description)"
  }
}

/// Step 3, once the reference holds the snapshot (it matched, or was recorded): no failure of it
/// is pending any more.
func clearFailureRecord(_ assertion: ResolvedAssertion) {
  FailureRecordStore.clear(referencePath: assertion.referencePath, in: assertion.artifacts)
}
