import Foundation
import RunRecord

/// What to do with a pending failure.
package enum Decision: String, Sendable {
  /// The new snapshot becomes the reference.
  case accept
  /// The new snapshot is discarded; the reference stays as it is.
  case reject
}

/// Why a failure could not be accepted or rejected.
package struct ResolutionError: Error, CustomStringConvertible, Sendable {
  package var description: String
}

extension PendingFailure {
  /// Carries out `decision`. Accepting writes the new snapshot over the reference atomically
  /// (a temporary file renamed over it), then removes the failure's artifacts and record;
  /// rejecting only removes them. A failure that could not be resolved keeps its record, so it
  /// can be retried.
  package func resolve(_ decision: Decision) throws(ResolutionError) {
    if let artifactsRefusal { throw ResolutionError(description: artifactsRefusal) }
    if decision == .accept && isInline {
      // Removes the record itself once the source is rewritten.
      if let error = InlineAcceptance.accept([self]).first ?? nil { throw error }
      return
    }
    if decision == .accept {
      guard let referenceURL else {
        throw ResolutionError(
          description: """
            Cannot accept "\(record.testName)": its reference "\(record.referencePath)" and test \
            file "\(record.testFilePath)" are not under the package root. Run the tool from the \
            package's folder, or pass --root.
            """
        )
      }
      if let acceptRefusal { throw ResolutionError(description: acceptRefusal) }
      guard let failedSnapshotURL = files.first(where: { $0.role == .newSnapshot })?.url else {
        throw ResolutionError(
          description: """
            Cannot accept "\(record.testName)": its failure record lists no new snapshot. \
            Re-run the test to produce one.
            """
        )
      }
      let data: Data
      do {
        data = try Data(contentsOf: failedSnapshotURL)
      } catch {
        throw ResolutionError(
          description: """
            Cannot accept "\(record.testName)": the new snapshot "\(failedSnapshotURL.path)" \
            could not be read (\(SnapshotFileError.reason(of: error))). Re-run the test to produce it again.
            """
        )
      }
      do {
        try AtomicFile.write(data, to: referenceURL)
      } catch {
        throw ResolutionError(
          description: """
            Cannot accept "\(record.testName)": writing "\(referenceURL.path)" failed \
            (\(error.cause)). The reference is unchanged.
            """
        )
      }
    }
    removeArtifacts()
  }

  /// Removes the failed snapshot, the diff's files and the record (last, so that an interrupted
  /// removal leaves the failure listed). Never removes the reference.
  func removeRecords() { removeArtifacts() }

  private func removeArtifacts() {
    for url in artifactURLs where url.standardizedFileURL != referenceURL?.standardizedFileURL {
      _ = unlink(url.path)
    }
    // The new snapshot's folder in the artifacts, once it holds nothing else (a failure without
    // one, as an inline snapshot's, has no such folder: never the records' own folder).
    if let snapshot = files.first(where: { $0.role == .newSnapshot }) {
      _ = rmdir(snapshot.url.deletingLastPathComponent().path)
    }
  }
}
