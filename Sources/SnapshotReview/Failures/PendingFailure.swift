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
  /// Whether ``referenceURL`` lies in the package (or under `SNAPSHOT_TESTING_REFERENCE_DIR`);
  /// for an inline snapshot, whether its test file lies in the package.
  package var referenceLocated = false
  /// Why the failure must not be accepted although its reference was found, if it must not: a
  /// record can come from another machine (CI artifacts), so accepting writes only inside the
  /// package, or under `SNAPSHOT_TESTING_REFERENCE_DIR` when it is set.
  package var acceptRefusal: String? = nil
  /// Why the failure must be neither accepted nor rejected, if it must not: its record lists a
  /// file outside the artifacts folder that holds it, which the tool never reads or removes.
  package var artifactsRefusal: String? = nil
  /// The new snapshot, then every file the comparison attached.
  package var files: [File]
  /// Older records of the same inline snapshot (from another artifacts folder), removed with
  /// this one.
  package var supersededRecordURLs: [URL] = []
  /// The test file on this machine, when the recorded one is not in the package but its tail
  /// is (a CI runner's checkout): what the tool shows and links to.
  package var testFileURL: URL? = nil

  /// The test file's path as the tool shows it: found in this package, else as recorded.
  package var testFilePath: String { testFileURL?.path ?? record.testFilePath }

  /// Whether this is an inline snapshot's failure, accepted by rewriting its test file.
  package var isInline: Bool { record.kind == .inline }

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
    files.map(\.url) + supersededRecordURLs + [recordURL]
  }
}

/// The pending failures under an artifacts folder.
package struct PendingFailures: Sendable {
  package var failures: [PendingFailure]
  /// Record files that could not be read, each naming the file and the cause.
  package var problems: [String]
  /// What the tool decided for the user, to be said: which of two records of one inline
  /// snapshot it kept.
  package var notes: [String] = []
  /// How many failures were left out because they belong to other packages (see
  /// ``load(artifactsRoots:packageRoot:includingOtherPackages:)``).
  package var otherPackages = 0

  /// Loads the failures recorded under each of `artifactsRoots` (the artifacts of several runs,
  /// such as the shards of a CI job), in that order.
  ///
  /// Only the package's own failures are kept unless `includingOtherPackages`: those whose
  /// reference, once located, lies inside `packageRoot` or under
  /// `SNAPSHOT_TESTING_REFERENCE_DIR`, or whose test file does (for an inline snapshot, its test
  /// file). Several packages on one machine share the default artifacts folder, and a record of
  /// one is never listed, accepted or deleted by the tool run in another; ``otherPackages``
  /// counts them, so that the tool can say they were left out.
  package static func load(
    artifactsRoots: [URL], packageRoot: URL, includingOtherPackages: Bool = false
  ) -> PendingFailures {
    var merged = PendingFailures(failures: [], problems: [])
    for root in artifactsRoots {
      let pending = load(
        artifactsRoot: root, packageRoot: packageRoot,
        includingOtherPackages: includingOtherPackages)
      merged.failures += pending.failures
      merged.problems += pending.problems
      merged.otherPackages += pending.otherPackages
    }
    merged.keepNewestInlineRecords()
    return merged
  }

  /// Keeps one failure per inline snapshot (file, line, column, closure): the newest. Two CI
  /// shards, or two downloads, can each hold one; the older is removed when the newer is
  /// resolved, and a note says which was kept.
  mutating func keepNewestInlineRecords() {
    var newest: [String: Int] = [:]
    var kept: [PendingFailure] = []
    for failure in failures {
      guard failure.isInline, let inline = failure.record.inline,
        let file = failure.referenceURL
      else {
        kept.append(failure)
        continue
      }
      let key = FailureRecord.inlineRecordKey(
        testFilePath: resolvedPath(file.path), line: failure.record.line, column: inline.column,
        trailingClosureOffset: inline.trailingClosureOffset)
      guard let index = newest[key] else {
        newest[key] = kept.count
        kept.append(failure)
        continue
      }
      var (winner, loser) = (kept[index], failure)
      if loser.record.recordedAt > winner.record.recordedAt { swap(&winner, &loser) }
      winner.supersededRecordURLs += [loser.recordURL] + loser.supersededRecordURLs
      kept[index] = winner
      notes.append(
        """
        Two failure records are for the inline snapshot at \(file.path):\(failure.record.line); \
        using the newer one, "\(winner.recordURL.path)" (recorded \
        \(Self.timestamp(winner.record.recordedAt))), over "\(loser.recordURL.path)" (recorded \
        \(Self.timestamp(loser.record.recordedAt))).
        """
      )
    }
    failures = kept
  }

  private static func timestamp(_ seconds: Double) -> String {
    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
  }

  /// Loads the failures recorded under `artifactsRoot`, locating their references under
  /// `packageRoot` when they were recorded on another machine.
  package static func load(
    artifactsRoot: URL, packageRoot: URL, includingOtherPackages: Bool = false
  ) -> PendingFailures {
    let artifacts = ArtifactsFolder(root: artifactsRoot)
    let (stored, problems) = FailureRecordStore.loadStored(from: artifacts)
    let writable = WritableFolders(packageRoot: packageRoot, environment: .current)
    let relocation = PathRelocation(
      artifactsRoot: artifactsRoot, packageRoot: packageRoot, referenceFolders: writable.folders,
      relocatesLocalRecords: includingOtherPackages)
    let all = stored.map { recordURL, record in
      if record.kind == .inline {
        return inlineFailure(
          record, recordURL: recordURL, relocation: relocation, writable: writable)
      }
      let referenceURL = relocation.reference(of: record)
      var files: [PendingFailure.File] = []
      var outside: [String] = []
      for file in record.files {
        let url = relocation.artifact(file.path)
        if artifacts.contains(url) {
          files.append(PendingFailure.File(role: file.role, url: url))
        } else {
          outside.append(url.path)
        }
      }
      return PendingFailure(
        record: record,
        recordURL: recordURL,
        referenceURL: referenceURL,
        acceptRefusal: referenceURL.flatMap { reference in
          writable.refusal(
            for: reference,
            record: record,
            // A folder snapshot's reference is a folder, which accepting replaces whole.
            newSnapshotIsFolder: files.first { $0.role == .newSnapshot }.map { isFolder($0.url) }
              ?? false
          )
        },
        artifactsRefusal: outside.isEmpty
          ? nil
          : """
            Refusing to resolve "\(record.testName)": its failure record \
            "\(recordURL.path)" lists \(outside.map { "\"\($0)\"" }.joined(separator: ", ")), \
            outside the artifacts folder "\(artifactsRoot.path)". The tool reads and removes \
            only files inside the artifacts folder that holds the record; nothing was changed. \
            Delete the record by hand if you do not trust it.
            """,
        files: files,
        testFileURL: relocation.testFile(of: record)
      )
    }
    let located = all.map { failure in
      var failure = failure
      failure.referenceLocated = writable.locates(failure)
      return failure
    }
    let failures = includingOtherPackages ? located : located.filter(writable.holds)
    return PendingFailures(
      failures: failures, problems: problems, otherPackages: all.count - failures.count)
  }

  /// An inline snapshot's failure: its "reference" is the test file, found in the package.
  private static func inlineFailure(
    _ record: FailureRecord,
    recordURL: URL,
    relocation: PathRelocation,
    writable: WritableFolders
  ) -> PendingFailure {
    let testFile = relocation.testFile(of: record)
    var refusal = writable.inlineRefusal(for: testFile, record: record)
    if record.inline == nil {
      refusal = """
        Refusing to accept "\(record.testName)": its failure record "\(recordURL.path)" is of \
        an inline snapshot but does not say where the snapshot is. Re-run the test.
        """
    }
    return PendingFailure(
      record: record,
      recordURL: recordURL,
      referenceURL: testFile,
      acceptRefusal: refusal,
      files: [],
      testFileURL: testFile
    )
  }
}

/// Where accepting may write a reference: inside the package, or under the reference folder the
/// environment names.
struct WritableFolders {
  /// The package root and `SNAPSHOT_TESTING_REFERENCE_DIR`, as given.
  var folders: [String]
  var packageRoot: URL

  init(packageRoot: URL, environment: RunEnvironment) {
    self.packageRoot = packageRoot
    referenceDirectory = environment[.referenceDirectory].flatMap { $0.isEmpty ? nil : $0 }
    folders = [packageRoot.path] + [referenceDirectory].compactMap { $0 }
  }

  /// Why writing `reference` for `record` must be refused, or `nil` when it may be written. A
  /// record may be crafted, so the reference must lie in an allowed folder and under a
  /// `__Snapshots__` folder of it (any folder under `SNAPSHOT_TESTING_REFERENCE_DIR`), once `..`
  /// and symbolic links are resolved, and its name must be one the engine could have written
  /// for the record's test, snapshot name and extension.
  func refusal(
    for reference: URL,
    record: FailureRecord,
    newSnapshotIsFolder: Bool = false
  ) -> String? {
    let test = record.testName
    // The reference itself resolved, not only its folder: writing follows a symbolic link at the
    // last component, so a crafted link would otherwise carry the write anywhere.
    let resolvedFolder = URL(fileURLWithPath: resolvedPath(reference.path))
      .deletingLastPathComponent().path
    guard let allowed = folders.first(where: { isInside(resolvedFolder, folder: $0, orEqual: true) })
    else {
      return """
        Refusing to accept "\(test)": its reference "\(reference.path)" is outside the package \
        "\(packageRoot.path)". A failure record may come from another machine, so accept writes \
        only inside the package, or under SNAPSHOT_TESTING_REFERENCE_DIR when it is set. Run the \
        tool from the package's folder (or pass --root), or set SNAPSHOT_TESTING_REFERENCE_DIR to \
        the folder that holds this reference.
        """
    }
    let underReferenceDirectory = referenceDirectory.map {
      isInside(resolvedFolder, folder: $0, orEqual: true)
    }
    let belowAllowed = resolvedFolder.dropFirst(resolvedPath(allowed).count)
    guard underReferenceDirectory == true
      || belowAllowed.split(separator: "/").contains("__Snapshots__")
    else {
      return """
        Refusing to accept "\(test)": its reference "\(reference.path)" is not in a \
        __Snapshots__ folder (nor under SNAPSHOT_TESTING_REFERENCE_DIR). A failure record may be \
        crafted, so accept writes only where the package keeps references. Re-record this \
        snapshot by running its test instead.
        """
    }
    if isDirectory(reference), !newSnapshotIsFolder {
      return """
        Refusing to accept "\(test)": its reference "\(reference.path)" is a folder.
        """
    }
    guard let name = ReferenceName(
      fileName: reference.lastPathComponent, pathExtension: record.pathExtension),
      // `<test>`, or `<test>-<arguments>` for a case of a test named by its arguments.
      name.test == sanitizePathComponent(record.testName)
        || name.test.hasPrefix(sanitizePathComponent(record.testName) + "-"),
      record.snapshotName.map({ name.identifier == sanitizePathComponent($0) })
        ?? name.identifier.allSatisfy(\.isASCIIDigit)
    else {
      return """
        Refusing to accept "\(test)": "\(reference.lastPathComponent)" is not a name this \
        package gives a reference of that test (<test>.<number or name>[.<variant>]\
        \(record.pathExtension.map { ".\($0)" } ?? "")). The failure record may have been \
        altered; nothing was written.
        """
    }
    return nil
  }

  /// Why rewriting `testFile` for the inline snapshot of `record` must be refused, or `nil`: a
  /// record may be crafted, so only a `.swift` file that exists inside the package is rewritten.
  func inlineRefusal(for testFile: URL?, record: FailureRecord) -> String? {
    let test = record.testName
    guard let testFile, FileManager.default.fileExists(atPath: testFile.path),
      isInside(testFile.path, folder: packageRoot.path)
    else {
      return """
        Refusing to accept "\(test)": its test file "\(record.testFilePath)" is not in the \
        package "\(packageRoot.path)": it was moved or renamed since the run, or the record names \
        a file outside the package. Accept rewrites only Swift files inside the package; nothing \
        was changed. Re-run the test to record the failure again.
        """
    }
    guard resolvedPath(testFile.path).hasSuffix(".swift"), !isDirectory(testFile) else {
      return """
        Refusing to accept "\(test)": "\(testFile.path)" is not a Swift source file. A failure \
        record may be crafted, so accept rewrites only .swift files; nothing was written.
        """
    }
    return nil
  }

  /// `SNAPSHOT_TESTING_REFERENCE_DIR`, if set.
  var referenceDirectory: String?

  /// Whether `failure` is this package's: its located test file lies in the package, or (for a
  /// file snapshot) its located reference lies in one of ``folders``, as written or once links
  /// are resolved (a reference linked out of the package is still this package's, to be refused
  /// by ``refusal(for:record:newSnapshotIsFolder:)`` naming why).
  func holds(_ failure: PendingFailure) -> Bool {
    if let testFile = failure.testFileURL, Self.lies(testFile, in: packageRoot.path) {
      return true
    }
    return locates(failure)
  }

  /// Whether `failure`'s reference lies in one of ``folders`` (an inline snapshot's, its test
  /// file, in the package).
  func locates(_ failure: PendingFailure) -> Bool {
    guard let reference = failure.referenceURL else { return false }
    if failure.isInline { return Self.lies(reference, in: packageRoot.path) }
    return folders.contains { Self.lies(reference, in: $0) }
  }

  private static func lies(_ url: URL, in folder: String) -> Bool {
    let base = URL(fileURLWithPath: folder).standardizedFileURL.path
    return url.standardizedFileURL.path.hasPrefix(base == "/" ? "/" : base + "/")
      || isInside(url.path, folder: folder)
  }

  private func isDirectory(_ url: URL) -> Bool {
    SystemCalls.isFolder(url.path) == true
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
