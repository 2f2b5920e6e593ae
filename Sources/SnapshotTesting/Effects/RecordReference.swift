import Foundation
import RunRecord

/// Step 3, when recording: writes the snapshot as the reference and attaches it to the running
/// test. Returns the failure message: a recording always fails, so that it gets reviewed.
func recordReference(
  _ snapshotData: Data,
  reason: SnapshotDecision.RecordingReason,
  asFolder: Bool,
  assertion: ResolvedAssertion
) -> String {
  do {
    try writeSnapshot(snapshotData, to: assertion.referenceURL, asFolder: asFolder)
  } catch {
    return error.description
  }
  clearFailureRecord(assertion)
  // A folder has no one file to attach; it is on disk.
  if !asFolder {
    recordAttachments(
      [FailureAttachment(name: assertion.location.fileName, data: snapshotData)],
      sourceLocation: assertion.context.sourceLocation
    )
  }
  return FailureMessage.recorded(
    reason,
    referenceURL: assertion.referenceURL,
    testName: assertion.context.testName
  )
}

/// Writes a reference or a failed snapshot: one file with ``AtomicFile``, or for a format that
/// stores a folder (``Diffing/storesFolder``) the folder its bytes describe, replaced as a unit.
func writeSnapshot(_ data: Data, to url: URL, asFolder: Bool) throws(SnapshotFileError) {
  guard asFolder else { return try AtomicFile.write(data, to: url) }
  guard let contents = FolderContents(decoding: data) else {
    throw .unwritable(url, "the snapshot is not a folder's contents")
  }
  try contents.writeFolder(at: url)
}
