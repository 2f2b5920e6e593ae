import Foundation
import RunRecord

/// Where an assertion's reference lives on disk.
///
/// `<test file's folder>/__Snapshots__/<test file name>/<test name>.<identifier>.<extension>`, or
/// `<snapshotDirectory>/<test name>.<identifier>.<extension>` when the caller names a directory;
/// a variant goes before the extension: `<test name>.<identifier>.<variant>.<extension>`.
struct ReferenceLocation: Equatable {
  /// The folder holding this test file's references.
  var directory: URL
  /// The test file's name without `.swift`.
  var testFileName: String
  /// `<test name>.<identifier>[.<variant>][.<extension>]`.
  var fileName: String

  var referenceURL: URL { directory.appendingPathComponent(fileName, isDirectory: false) }

  /// The file's name without the strategy's extension (with the variant), used to name diff
  /// attachments.
  var baseName: String
}

/// What tells an assertion's reference apart from the test's others.
enum ReferenceIdentifier: Equatable {
  /// The `named:` argument.
  case named(String)
  /// The 1-based number of an unnamed snapshot within its test.
  case counter(Int)
}

/// A problem with the name the caller gave a snapshot.
struct SnapshotNameError: Error, CustomStringConvertible {
  var name: String
  var description: String {
    """
    The snapshot name "\(name)" has no letters or digits, so it cannot name a reference file. \
    Names are made file-safe by turning other characters into "-"; choose a name with at least \
    one letter or digit.
    """
  }
}

/// Resolves where a reference is stored; a pure function of its inputs.
///
/// - Parameters:
///   - filePath: The test file's path (`#filePath`).
///   - testName: The test function's name (`#function`), sanitized for the file name.
///   - identifier: The snapshot's name, or its number within the test.
///   - pathExtension: The strategy's extension, if any.
///   - snapshotDirectory: A directory that replaces the default one, if given.
///   - referenceRoot: `SNAPSHOT_TESTING_REFERENCE_DIR`, if set: it replaces the package
///     folder that holds the `Tests/…/__Snapshots__` trees, keeping the layout under it.
///   - variant: The reference variant's name, already checked by `resolveVariant`, if any.
///   - testCase: The test case's part of the name (``TestCaseArguments/fileNamePart``), when
///     references are named by arguments.
func locateReference(
  filePath: String,
  testName: String,
  identifier: ReferenceIdentifier,
  pathExtension: String?,
  snapshotDirectory: String?,
  referenceRoot: String?,
  variant: String? = nil,
  testCase: String? = nil
) throws(SnapshotNameError) -> ReferenceLocation {
  let (testFileName, directory) = referenceFolder(
    filePath: filePath,
    snapshotDirectory: snapshotDirectory,
    referenceRoot: referenceRoot
  )

  let suffix: String
  switch identifier {
  case .named(let name):
    suffix = sanitizePathComponent(name)
    guard !suffix.isEmpty else { throw SnapshotNameError(name: name) }
  case .counter(let number):
    suffix = String(number)
  }
  let test = sanitizePathComponent(testName)
  let name = ReferenceName(
    test: testCase.map { "\(test)-\($0)" } ?? test,
    identifier: suffix,
    variant: variant,
    pathExtension: pathExtension
  )
  return ReferenceLocation(
    directory: directory,
    testFileName: testFileName,
    fileName: name.fileName,
    baseName: name.baseName
  )
}

private let referenceFolderCache = LockedCache<[String?], (testFileName: String, folder: URL)>()

/// The test file's name without its extension, and the folder holding its references. Every
/// assertion asks and `URL` is slow to answer, so the answer is kept for an absolute test file
/// path and folders (a relative path depends on the current directory, which may change).
private func referenceFolder(
  filePath: String,
  snapshotDirectory: String?,
  referenceRoot: String?
) -> (testFileName: String, folder: URL) {
  func build() -> (testFileName: String, folder: URL) {
    let fileURL = URL(fileURLWithPath: filePath, isDirectory: false)
    let testFileName = fileURL.deletingPathExtension().lastPathComponent
    if let snapshotDirectory {
      return (testFileName, URL(fileURLWithPath: snapshotDirectory, isDirectory: true))
    }
    var base = fileURL.deletingLastPathComponent()
    if let referenceRoot, !referenceRoot.isEmpty {
      base = relocate(base, under: URL(fileURLWithPath: referenceRoot, isDirectory: true))
    }
    let folder = base.appendingPathComponent("__Snapshots__", isDirectory: true)
      .appendingPathComponent(testFileName, isDirectory: true)
    return (testFileName, folder)
  }
  let isAbsolute =
    filePath.hasPrefix("/") && (snapshotDirectory.map { $0.hasPrefix("/") } ?? true)
    && (referenceRoot.map { $0.isEmpty || $0.hasPrefix("/") } ?? true)
  guard isAbsolute else { return build() }
  return referenceFolderCache.value(for: [filePath, snapshotDirectory, referenceRoot], make: build)
}

/// Moves a test folder under another root, keeping its path from the last `Tests` component on
/// (`/src/pkg/Tests/AppTests/UI` → `ROOT/Tests/AppTests/UI`); a folder outside any `Tests` folder
/// keeps only its own name.
func relocate(_ testFolder: URL, under root: URL) -> URL {
  let components = testFolder.standardizedFileURL.pathComponents
  let kept: ArraySlice<String>
  if let testsIndex = components.lastIndex(of: "Tests") {
    kept = components[testsIndex...]
  } else {
    kept = components.suffix(1)
  }
  return kept.reduce(root) { $0.appendingPathComponent($1, isDirectory: true) }
}
