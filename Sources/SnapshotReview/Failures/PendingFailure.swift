import Foundation
import RunRecord

/// A failed assertion waiting to be accepted or rejected, with its files located on this machine.
///
/// The paths in a ``FailureRecord`` are those of the machine that ran the test. When the artifacts
/// were downloaded from CI, they are found again under the local artifacts folder and package root
/// (see ``PathRelocation``).
package struct PendingFailure: Sendable {
  /// A file of the failure, found on this machine.
  package struct File: Sendable {
    package var role: FailureRecord.Role
    package var url: URL
  }

  package var record: FailureRecord
  /// The record's own file, removed once the failure is accepted or rejected.
  package var recordURL: URL
  /// Where the reference lives on this machine, or `nil` when neither it nor its test file could
  /// be found under the package root.
  package var referenceURL: URL?
  /// Why the failure must not be accepted although its reference was found, if it must not: a
  /// record can come from another machine (CI artifacts), so accepting writes only inside the
  /// package, or under `SNAPSHOT_TESTING_REFERENCE_DIR` when it is set.
  package var acceptRefusal: String? = nil
  /// The new snapshot, then every file the comparison attached.
  package var files: [File]

  /// The snapshot this run took.
  package var failedSnapshotURL: URL {
    files.first { $0.role == .newSnapshot }?.url ?? recordURL
  }

  /// Whether the snapshot is an image, shown by its PNG files rather than as text.
  package var isImage: Bool { record.kind == .image }

  /// The first attached file in `role`: the unified diff (`.patch`), the difference image.
  package func file(_ role: FailureRecord.Role) -> URL? {
    files.dropFirst().first { $0.role == role }?.url
  }

  /// "Snapshot does not match reference." and the like.
  package var headline: String { record.headline }

  /// The comparison's own words ("Newly-taken snapshot does not match reference. 49 of 384
  /// pixels differ…"), or for a missing reference why it was not recorded.
  package var details: String {
    record.difference ?? (record.reason == .missing ? record.message : "")
  }

  /// Every file of the failure in the artifacts folder, the record last.
  var artifactURLs: [URL] {
    files.map(\.url) + [recordURL]
  }
}

/// The pending failures under an artifacts folder.
package struct PendingFailures: Sendable {
  package var failures: [PendingFailure]
  /// Record files that could not be read, each naming the file and the cause.
  package var problems: [String]

  /// Loads the failures recorded under each of `artifactsRoots` (the artifacts of several runs,
  /// such as the shards of a CI job), in that order.
  package static func load(artifactsRoots: [URL], packageRoot: URL) -> PendingFailures {
    var merged = PendingFailures(failures: [], problems: [])
    for root in artifactsRoots {
      let pending = load(artifactsRoot: root, packageRoot: packageRoot)
      merged.failures += pending.failures
      merged.problems += pending.problems
    }
    return merged
  }

  /// Loads the failures recorded under `artifactsRoot`, locating their references under
  /// `packageRoot` when they were recorded on another machine.
  package static func load(artifactsRoot: URL, packageRoot: URL) -> PendingFailures {
    let artifacts = ArtifactsFolder(root: artifactsRoot)
    let (records, problems) = FailureRecordStore.load(from: artifacts)
    let relocation = PathRelocation(artifactsRoot: artifactsRoot, packageRoot: packageRoot)
    let writable = WritableFolders(packageRoot: packageRoot, environment: .current)
    let failures = records.map { record in
      let referenceURL = relocation.reference(of: record)
      return PendingFailure(
        record: record,
        recordURL: artifacts.failureRecordURL(forReference: record.referencePath),
        referenceURL: referenceURL,
        acceptRefusal: referenceURL.flatMap { writable.refusal(for: $0, test: record.testName) },
        files: record.files.map {
          PendingFailure.File(role: $0.role, url: relocation.artifact($0.path))
        }
      )
    }
    return PendingFailures(failures: failures, problems: problems)
  }
}

/// Where accepting may write a reference: inside the package, or under the reference folder the
/// environment names.
struct WritableFolders {
  var folders: [String]
  var packageRoot: URL

  init(packageRoot: URL, environment: RunEnvironment) {
    self.packageRoot = packageRoot
    folders = ([packageRoot.path] + [environment[.referenceDirectory]].compactMap { $0 })
      .flatMap { Self.forms(of: URL(fileURLWithPath: $0, isDirectory: true)) }
  }

  /// Why writing `reference` must be refused, or `nil` when it lies in an allowed folder: its
  /// folder, with `..` taken out, is inside one, as written or with symbolic links resolved (a
  /// link the package itself holds may point elsewhere).
  func refusal(for reference: URL, test: String) -> String? {
    let candidates = Self.forms(of: reference.deletingLastPathComponent())
    let isInside = candidates.contains { folder in
      folders.contains { folder == $0 || folder.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }
    if isInside { return nil }
    return """
      Refusing to accept "\(test)": its reference "\(reference.path)" is outside the package \
      "\(packageRoot.path)". A failure record may come from another machine, so accept writes \
      only inside the package, or under SNAPSHOT_TESTING_REFERENCE_DIR when it is set. Run the \
      tool from the package's folder (or pass --root), or set SNAPSHOT_TESTING_REFERENCE_DIR to \
      the folder that holds this reference.
      """
  }

  /// The path with `..` and `.` taken out, and the same with symbolic links resolved.
  private static func forms(of url: URL) -> [String] {
    let standardized = url.standardizedFileURL
    return [standardized.path, standardized.resolvingSymlinksInPath().path]
  }
}
