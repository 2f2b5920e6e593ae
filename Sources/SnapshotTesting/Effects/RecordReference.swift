import Foundation
import RunRecord

/// Step 3, when recording: writes the snapshot as the reference and attaches it to the running
/// test. Returns the failure message: a recording always fails, so that it gets reviewed.
func recordReference(
  _ snapshotData: Data,
  reason: SnapshotDecision.RecordingReason,
  assertion: ResolvedAssertion
) -> String {
  do {
    try AtomicFile.write(snapshotData, to: assertion.referenceURL)
  } catch {
    return error.description
  }
  clearFailureRecord(assertion)
  recordAttachments(
    [FailureAttachment(name: assertion.location.fileName, data: snapshotData)],
    sourceLocation: assertion.context.sourceLocation
  )
  return FailureMessage.recorded(
    reason,
    referenceURL: assertion.referenceURL,
    testName: assertion.context.testName
  )
}
