import Foundation
import RunRecord

/// Where a package keeps its references: every `__Snapshots__` folder beneath a folder. Shared by
/// `prune` and `optimize`, so that both look at the same files.
///
/// Hidden folders (`.build`, `.git`, `.swiftpm`) are not entered: dependencies' checkouts hold
/// references of their own. Symbolic links are not followed.
enum SnapshotFolders {
  /// The files inside `__Snapshots__` folders beneath `root`, and the temporary files of killed
  /// recordings among the hidden ones, each sorted by path.
  static func files(beneath root: URL) -> (references: [URL], temporaries: [URL]) {
    let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey]
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys)
    else { return ([], []) }
    var files: [URL] = []
    var temporaries: [URL] = []
    for case let url as URL in walker {
      let values = try? url.resourceValues(forKeys: Set(keys))
      let isHidden = url.lastPathComponent.hasPrefix(".")
      if values?.isDirectory == true {
        if isHidden { walker.skipDescendants() }
        continue
      }
      guard values?.isSymbolicLink != true, url.pathComponents.dropLast().contains("__Snapshots__")
      else { continue }
      if !isHidden {
        files.append(url)
      } else if TemporaryFiles.isStray(url.lastPathComponent) {
        temporaries.append(url)
      }
    }
    return (files.sorted { $0.path < $1.path }, temporaries.sorted { $0.path < $1.path })
  }
}
