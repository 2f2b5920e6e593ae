import Foundation
import RunRecord

/// What a new folder snapshot (`.directory`) holds, for showing a missing one: its paths as
/// added lines, sorted, at most `limit` of them and a count of the rest.
func folderListing(_ url: URL, limit: Int = 20) -> String? {
  guard isFolder(url), let contents = try? FolderContents.read(url) else { return nil }
  let paths = contents.entries.map { entry in
    entry.kind == .symbolicLink
      ? "+\(entry.path) -> \(String(decoding: entry.data, as: UTF8.self))" : "+\(entry.path)"
  }
  let shown = paths.prefix(limit).joined(separator: "\n")
  return shown + (paths.count > limit ? "\n… \(paths.count - limit) more files" : "")
}
