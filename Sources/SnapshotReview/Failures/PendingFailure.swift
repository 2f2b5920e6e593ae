import Foundation
import SnapshotTesting

/// A failed assertion waiting to be accepted or rejected, with its files located on this machine.
///
/// The paths in a ``FailureRecord`` are those of the machine that ran the test. When the artifacts
/// were downloaded from CI, they are found again under the local artifacts folder and package root
/// (see ``PathRelocation``).
package struct PendingFailure: Sendable {
  package var record: FailureRecord
  /// The record's own file, removed once the failure is accepted or rejected.
  package var recordURL: URL
  /// Where the reference lives on this machine, or `nil` when neither it nor its test file could
  /// be found under the package root.
  package var referenceURL: URL?
  package var failedSnapshotURL: URL
  package var attachmentURLs: [URL]

  /// Whether the snapshot is an image, shown by its PNG files rather than as text.
  package var isImage: Bool {
    failedSnapshotURL.pathExtension.lowercased() == "png"
  }

  /// The unified diff a text strategy attached (`….difference.patch`), if any.
  package var patchURL: URL? {
    attachmentURLs.first { $0.pathExtension.lowercased() == "patch" }
  }

  /// The attachment whose name ends with `suffix` (`difference.png`, `reference.png`).
  package func attachment(endingWith suffix: String) -> URL? {
    attachmentURLs.first { $0.lastPathComponent.hasSuffix(".\(suffix)") }
  }

  /// The message's first line: "Snapshot does not match reference." and the like.
  package var headline: String {
    let first = record.message.split(separator: "\n", omittingEmptySubsequences: true).first
    return first.map(String.init) ?? record.kind.rawValue
  }

  /// The stored message without its headline (shown on its own) and, for images, without the
  /// diff tool's paragraph: the comparison's own words ("Newly-taken snapshot does not match
  /// reference. 49 of 384 pixels differ…").
  package var details: String {
    var lines = record.message.split(separator: "\n", omittingEmptySubsequences: false)
    if let first = lines.first, String(first) == headline { lines.removeFirst() }
    var text = lines.joined(separator: "\n")
    if isImage, let start = text.range(of: "\nNewly-taken snapshot") {
      text = String(text[start.lowerBound...])
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Every file of the failure in the artifacts folder, the record last.
  var artifactURLs: [URL] {
    [failedSnapshotURL] + attachmentURLs + [recordURL]
  }
}

/// The pending failures under an artifacts folder.
package struct PendingFailures: Sendable {
  package var failures: [PendingFailure]
  /// Record files that could not be read, each naming the file and the cause.
  package var problems: [String]

  /// Loads the failures recorded under `artifactsRoot`, locating their references under
  /// `packageRoot` when they were recorded on another machine.
  package static func load(artifactsRoot: URL, packageRoot: URL) -> PendingFailures {
    let (records, problems) = FailureRecord.load(artifactsRoot: artifactsRoot)
    let relocation = PathRelocation(artifactsRoot: artifactsRoot, packageRoot: packageRoot)
    let failures = records.map { record in
      PendingFailure(
        record: record,
        recordURL: FailureRecord.fileURL(
          forReference: record.referencePath,
          artifactsRoot: artifactsRoot
        ),
        referenceURL: relocation.reference(of: record),
        failedSnapshotURL: relocation.artifact(record.failedSnapshotPath),
        attachmentURLs: record.attachmentPaths.map(relocation.artifact)
      )
    }
    return PendingFailures(failures: failures, problems: problems)
  }
}
