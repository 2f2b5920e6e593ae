import Foundation

/// The folder a run leaves its failures in, and the name of every file in it.
///
/// ```
/// <artifacts>/Tests/<target>/<test file name>/<reference file name>          the new snapshot
/// <artifacts>/Tests/<target>/<test file name>/<reference base name>.<name>   a diff's file
/// <artifacts>/.snapshot-testing/failures/<hash>.json          a pending failure (FailureRecord)
/// ```
///
/// The root is `SNAPSHOT_ARTIFACTS`, or the system's temporary folder. It is kept as a path until
/// a failure needs a `URL`: a matching assertion only removes a stale failure record, and building
/// `URL`s costs as much as the rest of the match.
package struct ArtifactsFolder: Equatable, Sendable {
  /// The root as configured (possibly relative to the current folder).
  package var rootPath: String

  package init(rootPath: String) {
    self.rootPath = rootPath
  }

  package init(root: URL) {
    self.init(rootPath: root.path)
  }

  /// `SNAPSHOT_ARTIFACTS` when set, else the temporary folder.
  package init(_ environment: RunEnvironment) {
    self.init(rootPath: environment[.artifacts] ?? NSTemporaryDirectory())
  }

  package var root: URL { URL(fileURLWithPath: rootPath, isDirectory: true) }

  /// The folder holding the new snapshots and attachments of the references in
  /// `referenceFolder`. It mirrors that folder's path from its first `Tests` component on, without
  /// `__Snapshots__` (`/src/app/Tests/AppTests/__Snapshots__/UserTests` →
  /// `<root>/Tests/AppTests/UserTests`), so two test files of the same name in two test targets
  /// never share a file here; a folder outside any `Tests` folder keeps its whole path.
  package func folder(forReferenceFolder referenceFolder: String) -> URL {
    let components = URL(fileURLWithPath: referenceFolder, isDirectory: true)
      .standardizedFileURL.pathComponents.filter { $0 != "/" }
    // From the first `Tests`: a later one (`Tests/A/Tests/…`, `Tests/B/Tests/…`) would let two
    // targets meet again.
    let kept = components.firstIndex(of: "Tests").map { components[$0...] } ?? components[...]
    return kept.filter { $0 != "__Snapshots__" }.reduce(root) {
      $0.appendingPathComponent($1, isDirectory: true)
    }
  }

  /// Where the new snapshot of a failed assertion goes: named as its reference.
  package func newSnapshotURL(referenceFolder: String, referenceFileName: String) -> URL {
    folder(forReferenceFolder: referenceFolder)
      .appendingPathComponent(referenceFileName, isDirectory: false)
  }

  /// Where a file the diff attached goes: `<reference base name>.<attachment name>`, or
  /// `attachment-<n>` (1-based) for an unnamed one. A name never leaves the folder.
  package func attachmentURL(
    referenceFolder: String,
    referenceBaseName: String,
    attachmentName: String?,
    position: Int
  ) -> URL {
    let suffix = attachmentName.map(Self.safeFileName) ?? "attachment-\(position)"
    return folder(forReferenceFolder: referenceFolder).appendingPathComponent(
      "\(referenceBaseName).\(suffix)",
      isDirectory: false
    )
  }

  /// Whether `url` lies inside this folder once `..` and symbolic links are resolved on both
  /// sides: a failure record may be crafted, so a tool reads and removes only such files.
  package func contains(_ url: URL) -> Bool {
    isInside(url.path, folder: rootPath)
  }

  /// The folder of pending failure records.
  package var failureRecordsFolder: URL {
    root.appendingPathComponent(".snapshot-testing/failures", isDirectory: true)
  }

  /// The record file of a reference's pending failure: a hash of the reference's path names it,
  /// so each reference has at most one.
  package func failureRecordURL(forReference referencePath: String) -> URL {
    failureRecordsFolder.appendingPathComponent(
      Self.failureRecordName(forReference: referencePath),
      isDirectory: false
    )
  }

  /// `failureRecordURL(forReference:).path`, built without `URL` on every call: it is asked on
  /// every matching assertion. The folder's path is built through `URL` once per absolute root
  /// (a relative root depends on the current folder, which may change).
  package func failureRecordPath(forReference referencePath: String) -> String {
    let folder =
      rootPath.hasPrefix("/")
      ? Self.failureFolderPaths.value(for: rootPath) { failureRecordsFolder.path }
      : failureRecordsFolder.path
    return folder + "/" + Self.failureRecordName(forReference: referencePath)
  }

  private static let failureFolderPaths = LockedCache<String, String>()

  /// `<16 hex digits>.json`: the 64-bit FNV-1a hash of the reference's path.
  static func failureRecordName(forReference referencePath: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in referencePath.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits + ".json"
  }

  /// Keeps an attachment's own file name but never lets it leave the folder.
  private static func safeFileName(_ name: String) -> String {
    let safe = name.replacingOccurrences(of: "/", with: "-")
    return safe.isEmpty || safe == "." || safe == ".." ? "attachment" : safe
  }
}
