import Foundation
import RunRecord

/// Where a package keeps its references: every `__Snapshots__` folder beneath a folder. Shared by
/// `prune` and `optimize`, so that both look at the same files.
///
/// Hidden folders (`.build`, `.git`, `.swiftpm`) are not entered: dependencies' checkouts hold
/// references of their own. Symbolic links are not followed. A folder where a reference file
/// would be (`__Snapshots__/<test file>/<test>.1/`) is a folder reference (`.directory`): it is
/// listed as one reference and not entered, so a tool keeps, deletes or leaves it whole.
enum SnapshotFolders {
  /// The files (and folder references) inside `__Snapshots__` folders beneath `root`, and the
  /// temporary files and folders of killed recordings among the hidden ones, each sorted by path.
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
        let isReferenceLevel = url.pathComponents.dropLast(2).last == "__Snapshots__"
        if isHidden {
          walker.skipDescendants()
          if isReferenceLevel, TemporaryFiles.isStray(url.lastPathComponent) {
            temporaries.append(url)
          }
        } else if isReferenceLevel {
          walker.skipDescendants()
          files.append(url)
        }
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
