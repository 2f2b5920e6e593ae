import Foundation
import RunRecord

/// Finds a failure's files on this machine when the record was written on another one (a CI
/// runner's checkout at `/home/runner/work/app/app`, artifacts downloaded to `./artifacts`).
///
/// Paths that exist are kept only where they may be used: an artifact inside the artifacts folder,
/// a reference inside the package. Otherwise an artifact is looked up by the longest tail of its
/// path found under the local artifacts folder, and a reference by the longest tail of its test
/// file's path, or of its own folder's path, that exists under the package root.
///
/// A record whose paths exist on this machine outside the package was written by another package
/// or another checkout sharing the artifacts folder; the tool cannot tell which, so it is left
/// where it was recorded (and so out of the review's scope) unless `relocatesLocalRecords` (the
/// tool's `--all-packages`) asks to move it into this package as a CI runner's would be.
struct PathRelocation {
  var artifactsRoot: URL
  var packageRoot: URL
  /// Where a recorded reference that exists is kept as it is: the package, and the reference
  /// folder the environment names (``WritableFolders/folders``).
  var referenceFolders: [String]
  /// Whether a record whose paths exist on this machine, outside the package, is moved into it.
  var relocatesLocalRecords: Bool
  var fileManager: FileManager { .default }

  init(
    artifactsRoot: URL, packageRoot: URL, referenceFolders: [String]? = nil,
    relocatesLocalRecords: Bool = false
  ) {
    self.artifactsRoot = artifactsRoot
    self.packageRoot = packageRoot
    self.referenceFolders = referenceFolders ?? [packageRoot.path]
    self.relocatesLocalRecords = relocatesLocalRecords
  }

  func artifact(_ path: String) -> URL {
    let recorded = URL(fileURLWithPath: path)
    if fileManager.fileExists(atPath: path) && isInside(path, folder: artifactsRoot.path) {
      return recorded
    }
    // The longest tail of the recorded path found under the local artifacts folder: the files
    // mirror the references' folders there (`Tests/AppTests/UserTests/testUser.1.txt`).
    let components = recorded.pathComponents.filter { $0 != "/" && $0 != ".." && $0 != "." }
    guard components.count >= 2 else { return recorded }
    for start in 0...(components.count - 2) {
      let local = components[start...].reduce(artifactsRoot) { $0.appendingPathComponent($1) }
      if fileManager.fileExists(atPath: local.path) { return local }
    }
    return recorded
  }

  func reference(of record: FailureRecord) -> URL? {
    let recorded = URL(fileURLWithPath: record.referencePath)
    let recordedFolder = recorded.deletingLastPathComponent()
    let recordedExists =
      isDirectory(recordedFolder) || fileManager.fileExists(atPath: record.testFilePath)
    let resolved = resolvedPath(recorded.path)
    if recordedExists,
      referenceFolders.contains(where: { isInside(resolved, folder: resolvedPath($0)) })
    {
      return recorded
    }
    if recordedExists && !relocatesLocalRecords { return recorded }
    if let relocated = relocatedReference(of: record, recorded: recorded) { return relocated }
    // Nothing of it in this package: the recorded path, which the writable-folder check refuses
    // naming it, when it exists; else nothing.
    return recordedExists ? recorded : nil
  }

  private func relocatedReference(of record: FailureRecord, recorded: URL) -> URL? {
    let recordedFolder = recorded.deletingLastPathComponent()
    // The reference sits beside its test file (`<folder>/__Snapshots__/…`): move it with the file.
    let testFolder =
      URL(fileURLWithPath: record.testFilePath).deletingLastPathComponent().path + "/"
    if record.referencePath.hasPrefix(testFolder),
      let localTestFile = longestExistingTail(of: record.testFilePath, minimumComponents: 2)
    {
      let relative = String(record.referencePath.dropFirst(testFolder.count))
      return localTestFile.deletingLastPathComponent().appendingPathComponent(relative)
    }
    // Elsewhere (`SNAPSHOT_TESTING_REFERENCE_DIR`): find its folder.
    if let localFolder = longestExistingTail(of: recordedFolder.path, minimumComponents: 2) {
      return localFolder.appendingPathComponent(recorded.lastPathComponent)
    }
    return nil
  }

  /// The test file of an inline snapshot on this machine: the recorded path when it lies in the
  /// package, else the longest tail of it found under the package root (a CI runner's
  /// `/home/runner/work/app/app/Tests/AppTests/UserTests.swift` →
  /// `<root>/Tests/AppTests/UserTests.swift`); `nil` when neither is in the package (moved,
  /// renamed, a record naming a file elsewhere, or one of another package on this machine).
  func testFile(of record: FailureRecord) -> URL? {
    let recorded = URL(fileURLWithPath: record.testFilePath)
    if fileManager.fileExists(atPath: recorded.path) {
      if isInside(recorded.path, folder: packageRoot.path) { return recorded }
      if !relocatesLocalRecords { return nil }
    }
    return longestExistingTail(of: record.testFilePath, minimumComponents: 1)
  }

  /// `packageRoot` joined with the longest tail of `path` that exists there.
  private func longestExistingTail(of path: String, minimumComponents: Int) -> URL? {
    let components = URL(fileURLWithPath: path).pathComponents.filter { $0 != "/" }
    guard components.count >= minimumComponents else { return nil }
    for start in 0...(components.count - minimumComponents) {
      let candidate = components[start...].reduce(packageRoot) { $0.appendingPathComponent($1) }
      if fileManager.fileExists(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  private func isDirectory(_ url: URL) -> Bool {
    SystemCalls.isFolder(url.path) == true
  }
}
