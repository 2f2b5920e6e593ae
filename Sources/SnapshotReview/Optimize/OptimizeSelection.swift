import Foundation
import RunRecord

/// The PNG files `optimize` looks at.
struct OptimizeSelection: Equatable {
  /// Sorted by path, each once.
  var files: [URL]
  /// Paths given that name nothing.
  var missing: [URL]

  /// `.png` files inside `__Snapshots__` folders beneath each folder in `paths` (beneath `root`
  /// when there are none), and each file in `paths` wherever it is.
  static func select(paths: [URL], root: URL) -> OptimizeSelection {
    var files: [URL] = []
    var missing: [URL] = []
    for path in paths.isEmpty ? [root] : paths {
      guard let isFolder = SystemCalls.isFolder(path.path) else {
        missing.append(path)
        continue
      }
      if isFolder {
        files += SnapshotFolders.files(beneath: path).references
          .filter { $0.pathExtension.lowercased() == "png" }
      } else {
        files.append(path)
      }
    }
    var seen: Set<String> = []
    let unique = files.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
    return OptimizeSelection(files: unique.sorted { $0.path < $1.path }, missing: missing)
  }
}
