import Foundation

/// The git commit a folder's checkout is at, read from the `.git` files without running git.
///
/// A usage log records it so that `prune` can refuse to merge logs of different commits: the
/// tests of one would not be the tests of the other.
package enum GitRevision {
  /// The commit checked out in the repository holding `folder`, or `nil` when `folder` is not in
  /// a git checkout or its `HEAD` cannot be read (a corrupt or unusual repository: no answer is
  /// better than a wrong one).
  ///
  /// Follows `.git` files (worktrees, submodules: `gitdir: <path>`), symbolic `HEAD`s through
  /// loose and packed refs, and `commondir` (a worktree's refs live in the main repository).
  package static func current(at folder: URL) -> String? {
    guard let gitFolder = gitFolder(above: folder.standardizedFileURL) else { return nil }
    guard let head = firstLine(of: gitFolder.appendingPathComponent("HEAD")) else { return nil }
    guard head.hasPrefix("ref: ") else { return isCommit(head) ? head : nil }
    let ref = String(head.dropFirst("ref: ".count))
    // Refs are shared by all worktrees: they live in the common folder when there is one.
    var folders = [gitFolder]
    if let common = firstLine(of: gitFolder.appendingPathComponent("commondir")) {
      folders.append(URL(fileURLWithPath: common, relativeTo: gitFolder).standardizedFileURL)
    }
    for folder in folders {
      if let loose = firstLine(of: folder.appendingPathComponent(ref)), isCommit(loose) {
        return loose
      }
      if let packed = packedRef(ref, in: folder) { return packed }
    }
    return nil
  }

  /// The `.git` folder of the checkout holding `folder`, searching upwards.
  private static func gitFolder(above folder: URL) -> URL? {
    var current = folder
    while true {
      let candidate = current.appendingPathComponent(".git")
      if let isFolder = SystemCalls.isFolder(candidate.path) {
        if isFolder { return candidate }
        // A worktree or a submodule: `gitdir: <path>`, relative to the file's folder or absolute.
        guard let line = firstLine(of: candidate), line.hasPrefix("gitdir: ") else { return nil }
        let path = String(line.dropFirst("gitdir: ".count))
        return URL(fileURLWithPath: path, relativeTo: current).standardizedFileURL
      }
      let parent = current.deletingLastPathComponent()
      guard parent.path != current.path else { return nil }
      current = parent
    }
  }

  /// `ref`'s commit in `folder/packed-refs`: lines of `<commit> <ref>`.
  private static func packedRef(_ ref: String, in folder: URL) -> String? {
    guard
      let text = try? String(
        contentsOf: folder.appendingPathComponent("packed-refs"),
        encoding: .utf8
      )
    else { return nil }
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 1)
      if fields.count == 2, fields[1] == ref, isCommit(String(fields[0])) {
        return String(fields[0])
      }
    }
    return nil
  }

  private static func firstLine(of url: URL) -> String? {
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
    return text.split(separator: "\n", omittingEmptySubsequences: false).first.map {
      $0.trimmingCharacters(in: .whitespaces)
    }
  }

  /// A SHA-1 or SHA-256 object name.
  private static func isCommit(_ text: String) -> Bool {
    (text.utf8.count == 40 || text.utf8.count == 64) && text.allSatisfy(\.isHexDigit)
  }
}
