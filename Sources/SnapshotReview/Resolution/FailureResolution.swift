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
      if isFolder(failedSnapshotURL) {
        try acceptFolder(failedSnapshotURL, over: referenceURL)
        removeArtifacts()
        return
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

  /// A folder snapshot's new folder, copied over its reference folder as one unit
  /// (``FolderContents/writeFolder(at:)``): files it lacks are removed with the old folder.
  private func acceptFolder(_ failed: URL, over referenceURL: URL) throws(ResolutionError) {
    do {
      guard let contents = try FolderContents.read(failed) else {
        throw FolderContentsError.unreadable(failed.path, SystemError(ENOENT).text)
      }
      try contents.writeFolder(at: referenceURL)
    } catch let error as FolderContentsError {
      throw ResolutionError(
        description: """
          Cannot accept "\(record.testName)": the new snapshot could not be read \
          (\(error.description)). Re-run the test to produce it again.
          """
      )
    } catch let error as SnapshotFileError {
      throw ResolutionError(
        description: """
          Cannot accept "\(record.testName)": writing "\(referenceURL.path)" failed \
          (\(error.cause)). The reference is unchanged.
          """
      )
    } catch {
      throw ResolutionError(description: "Cannot accept \"\(record.testName)\": \(error).")
    }
  }

  private func removeArtifacts() {
    // A folder snapshot's new folder goes as a whole; links in it are removed, never followed.
    for url in artifactURLs where url.standardizedFileURL != referenceURL?.standardizedFileURL {
      removeTree(url.path)
    }
    // The new snapshot's folder in the artifacts, once it holds nothing else (a failure without
    // one, as an inline snapshot's, has no such folder: never the records' own folder).
    if let snapshot = files.first(where: { $0.role == .newSnapshot }) {
      SystemCalls.removeFolder(snapshot.url.deletingLastPathComponent().path)
    }
  }
}

/// Whether `url` is a folder itself (a symbolic link to one is not).
func isFolder(_ url: URL) -> Bool {
  SystemCalls.isFolder(url.path, followingLinks: false) == true
}
