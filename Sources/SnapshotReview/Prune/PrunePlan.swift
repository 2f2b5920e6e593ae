import Foundation
import RunRecord

/// The reference files under a package that no assertion of a complete run used.
package struct PrunePlan: Sendable {
  package var root: URL
  /// Unused files under `__Snapshots__` folders, sorted.
  package var unreferenced: [URL]
  /// How many files under `__Snapshots__` folders were looked at.
  package var referenceCount: Int
  /// Hidden temporary files under `__Snapshots__` folders that a killed recording left.
  package var strayTemporaryFiles: [URL] = []
  /// Unused files whose name carries a variant the run did not use (`*.macos.png` after a Linux
  /// run), with that variant: the run could not have produced them, so they are kept.
  package var otherVariants: [(url: URL, variant: String)] = []
  /// The variants the run used, as the log lists them.
  package var runVariants: Set<String> = []

  /// Whether there is anything to delete.
  package var isEmpty: Bool { unreferenced.isEmpty && strayTemporaryFiles.isEmpty }

  /// Walks every `__Snapshots__` folder beneath `root` and keeps the files `log` does not name.
  ///
  /// Hidden files (`.gitattributes`) are kept, except the temporary files of killed recordings
  /// (see `TemporaryFiles`), and hidden folders (`.build`, `.git`, `.swiftpm`) are not entered:
  /// dependencies' checkouts hold references of their own. Refuses when no used
  /// reference lies beneath `root`, which means the log comes from another checkout or `root` is
  /// wrong.
  ///
  /// An unused file whose name carries a variant that the run did not use
  /// (``ReferenceName/variant(in:knownVariants:)``) is never deleted: a Linux run cannot
  /// produce `*.macos.png`, nor a run without `fr_FR` produce `*.fr_FR.txt`. It is listed in
  /// ``otherVariants`` instead.
  ///
  /// - Complexity: O(n) in the number of files beneath `root`.
  package static func plan(log: CompleteUsageLog, root: URL) throws(PruneRefusal) -> PrunePlan {
    let rootPath = standardizedPath(root.path)
    let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
    guard SystemCalls.isFolder(rootPath) == true else {
      throw PruneRefusal(description: "Refusing to prune: \"\(root.path)\" is not a folder.")
    }
    let usedBelowRoot = log.usedPaths.filter { $0.hasPrefix(prefix) }
    guard !usedBelowRoot.isEmpty else {
      throw PruneRefusal(
        description: """
          Refusing to prune: none of the \(count(log.usedPaths.count, "reference")) in the usage \
          log lies beneath "\(rootPath)". The log comes from another checkout, or --root names \
          the wrong folder.
          """
      )
    }
    let (files, temporaries) = SnapshotFolders.files(
      beneath: URL(fileURLWithPath: rootPath, isDirectory: true)
    )
    var unreferenced: [URL] = []
    var otherVariants: [(url: URL, variant: String)] = []
    for file in files where !log.usedPaths.contains(standardizedPath(file.path)) {
      if let variant = ReferenceName.variant(
        in: file.lastPathComponent,
        knownVariants: log.variants
      ), !log.variants.contains(variant) {
        otherVariants.append((file, variant))
      } else {
        unreferenced.append(file)
      }
    }
    return PrunePlan(
      root: root,
      unreferenced: unreferenced,
      referenceCount: files.count,
      strayTemporaryFiles: temporaries,
      otherVariants: otherVariants,
      runVariants: log.variants
    )
  }

  /// Deletes the unreferenced files and folder references, then the folders inside
  /// `__Snapshots__` (and the `__Snapshots__` folder itself) that this left empty. Returns the
  /// files that could not be removed, with the reason.
  package func delete() -> [(URL, String)] {
    var problems: [(URL, String)] = []
    var folders: Set<String> = []
    for url in unreferenced + strayTemporaryFiles {
      // Checked again here: a file outside a `__Snapshots__` folder is never deleted.
      guard url.pathComponents.dropLast().contains("__Snapshots__") else { continue }
      // A folder reference, or a killed recording's temporary folder, goes as a whole.
      if SystemCalls.isFolder(url.path, followingLinks: false) == true {
        removeTree(url.path)
        if case .success = SystemCalls.linkStatus(ofPath: url.path) {
          problems.append((url, "the folder could not be removed entirely"))
          continue
        }
      } else if let error = SystemCalls.removeFile(url.path) {
        problems.append((url, error.text))
        continue
      }
      folders.insert(url.deletingLastPathComponent().path)
    }
    for folder in folders.sorted(by: >) {
      var url = URL(fileURLWithPath: folder, isDirectory: true)
      // Up to and including the `__Snapshots__` folder, while each is empty.
      while url.pathComponents.contains("__Snapshots__") {
        guard SystemCalls.removeFolder(url.path) == nil else { break }
        url = url.deletingLastPathComponent()
      }
    }
    return problems
  }
}
