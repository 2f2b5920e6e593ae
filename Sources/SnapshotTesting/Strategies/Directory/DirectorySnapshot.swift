import Foundation
import RunRecord

/// A folder's files by their paths relative to it: the format of the `.directory` strategies.
///
/// ```swift
/// let site = DirectorySnapshot(files: [
///   "index.html": Data("<h1>Hello</h1>\n".utf8),
///   "css/site.css": Data("h1 { color: red }\n".utf8),
/// ])
/// ```
///
/// Paths use `/`, are relative and have no empty, `.` or `..` component; folders are implied by
/// the paths of the files they hold (an empty folder is not part of a snapshot, as Git keeps
/// none).
public struct DirectorySnapshot: Equatable, Sendable {
  /// What one path of the folder holds.
  public enum Entry: Equatable, Sendable {
    /// A regular file's bytes, and whether it is executable.
    case file(Data, isExecutable: Bool = false)
    /// A symbolic link, recorded as its target's text and never followed. A target must stay
    /// inside the folder.
    case symbolicLink(to: String)
  }

  /// The entries, by relative path (`docs/index.md`).
  public var entries: [String: Entry]

  /// Creates a snapshot from its entries.
  public init(entries: [String: Entry]) {
    self.entries = entries
  }

  /// Creates a snapshot of plain files (none executable), by relative path.
  public init(files: [String: Data]) {
    self.entries = files.mapValues { .file($0) }
  }

  init(_ contents: FolderContents) {
    var entries: [String: Entry] = [:]
    entries.reserveCapacity(contents.entries.count)
    for entry in contents.entries {
      switch entry.kind {
      case .file: entries[entry.path] = .file(entry.data)
      case .executable: entries[entry.path] = .file(entry.data, isExecutable: true)
      case .symbolicLink:
        entries[entry.path] = .symbolicLink(to: String(decoding: entry.data, as: UTF8.self))
      }
    }
    self.entries = entries
  }

  /// The entries checked and sorted, or the reason they cannot be a folder (a path that is
  /// absolute or climbs out, a file that also holds other paths, a link that leaves the folder).
  func folderContents() throws(FolderContentsError) -> FolderContents {
    try FolderContents(
      entries: entries.map { path, entry in
        switch entry {
        case .file(let data, let isExecutable):
          FolderContents.Entry(path: path, kind: isExecutable ? .executable : .file, data: data)
        case .symbolicLink(let target):
          FolderContents.Entry(path: path, kind: .symbolicLink, data: Data(target.utf8))
        }
      }
    )
  }
}
