import Foundation
import RunRecord

/// The files an assertion saved to explain its failure.
struct SavedArtifacts {
  /// Every file with its role, the new snapshot first.
  var files: [FailureRecord.File]
  /// The same files, to attach to the running test.
  var attachments: [FailureAttachment]
  /// A message for each file that could not be written.
  var problems: [String]

  var newSnapshotPath: String { files[0].path }
}

/// Step 3, on failure: writes the new snapshot and the comparison's files to the artifacts folder
/// (see ``ArtifactsFolder`` for their names). A file that cannot be written is noted, not fatal:
/// the failure is still reported.
func writeArtifacts(
  snapshotData: Data,
  diffAttachments: [DiffAttachment],
  roles: [String: FailureRecord.Role],
  asFolder: Bool = false,
  assertion: ResolvedAssertion
) -> SavedArtifacts {
  let location = assertion.location
  let referenceFolder = location.directory.path
  var files: [(FailureRecord.Role, URL, String, Data)] = [
    (
      .newSnapshot,
      assertion.artifacts.newSnapshotURL(
        referenceFolder: referenceFolder,
        referenceFileName: location.fileName
      ),
      location.fileName,
      snapshotData
    )
  ]
  for (index, attachment) in diffAttachments.enumerated() {
    let (data, name) = attachment.fileContents
    let url = assertion.artifacts.attachmentURL(
      referenceFolder: referenceFolder,
      referenceBaseName: location.baseName,
      attachmentName: name,
      position: index + 1
    )
    files.append((name.flatMap { roles[$0] } ?? .attachment, url, url.lastPathComponent, data))
  }
  var problems: [String] = []
  for (index, (_, url, _, data)) in files.enumerated() {
    do {
      // The new snapshot of a folder format is a folder too, so that accepting it is a copy.
      try writeSnapshot(data, to: url, asFolder: asFolder && index == 0)
    } catch {
      problems.append("The failure's artifact could not be saved. \(error.description)")
    }
  }
  return SavedArtifacts(
    files: files.map { FailureRecord.File(role: $0.0, path: $0.1.path) },
    // A folder is not attached (a test attaches files); it is on disk.
    attachments: files.dropFirst(asFolder ? 1 : 0).map {
      FailureAttachment(name: $0.2, data: $0.3)
    },
    problems: problems
  )
}
