import Foundation
import RunRecord

/// Step 3, when the reference is missing and not recorded: saves the new snapshot as an artifact
/// and leaves the failure for review.
func reportMissingReference<Format>(
  _ reason: SnapshotDecision.MissingReason,
  snapshotData: Data,
  diffing: Diffing<Format>,
  assertion: ResolvedAssertion
) -> String {
  let saved = saveArtifacts(snapshotData, [], diffing: diffing, assertion: assertion)
  let message = FailureMessage.missing(
    reason,
    referencePath: assertion.referencePath,
    newSnapshotPath: saved.newSnapshotPath
  )
  return saveFailureRecord(
    FailureSummary(
      reason: .missing,
      headline: FailureMessage.headline(reason),
      message: FailureMessage.appending(saved.problems, to: message)
    ),
    artifacts: saved,
    diffing: diffing,
    assertion: assertion
  )
}

/// Step 3, on a mismatch: re-records the reference in record mode `failed`, saves the new
/// snapshot and the comparison's files, and leaves the failure for review unless it was
/// re-recorded.
func reportMismatch<Format>(
  _ mismatch: SnapshotDifference,
  snapshotData: Data,
  diffing: Diffing<Format>,
  assertion: ResolvedAssertion
) -> String {
  var recordingProblem: String?
  if mismatch.rerecords {
    do {
      try writeSnapshot(
        snapshotData, to: assertion.referenceURL, asFolder: diffing.storesFolder)
    } catch {
      recordingProblem = error.description
    }
  }
  let rerecorded = mismatch.rerecords && recordingProblem == nil
  let saved = saveArtifacts(
    snapshotData,
    mismatch.attachments,
    diffing: diffing,
    assertion: assertion
  )
  let headline = FailureMessage.mismatchHeadline(
    name: assertion.context.name,
    rerecorded: rerecorded
  )
  let diffToolCommand = assertion.diffTool(
    currentFilePath: assertion.referencePath,
    failedFilePath: saved.newSnapshotPath
  )
  let difference = DifferenceExcerpt(
    mismatch.difference,
    patchPath: saved.files.first { $0.role == .patch }?.path
  ).text
  let message = FailureMessage.appending(
    saved.problems,
    to: FailureMessage.mismatch(
      headline: headline,
      diffToolCommand: diffToolCommand,
      difference: difference,
      recordingProblem: recordingProblem,
      referenceWasEmpty: mismatch.referenceWasEmpty,
      referencePath: assertion.referencePath
    )
  )
  // Re-recorded: the failure is reported, but nothing is left to review.
  if rerecorded {
    clearFailureRecord(assertion)
    return message
  }
  return saveFailureRecord(
    FailureSummary(
      reason: .mismatch,
      headline: headline,
      difference: difference,
      diffToolCommand: diffToolCommand,
      message: message
    ),
    artifacts: saved,
    diffing: diffing,
    assertion: assertion
  )
}

/// Writes the failure's files and attaches them to the running test.
private func saveArtifacts<Format>(
  _ snapshotData: Data,
  _ attachments: [DiffAttachment],
  diffing: Diffing<Format>,
  assertion: ResolvedAssertion
) -> SavedArtifacts {
  let saved = writeArtifacts(
    snapshotData: snapshotData,
    diffAttachments: attachments,
    roles: diffing.attachmentRoles,
    asFolder: diffing.storesFolder,
    assertion: assertion
  )
  recordAttachments(saved.attachments, sourceLocation: assertion.context.sourceLocation)
  return saved
}
