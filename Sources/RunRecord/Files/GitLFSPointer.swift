import Foundation

/// Recognises the small text file Git LFS leaves in place of a file whose content was never
/// downloaded. Its first line names the pointer specification: `version https://git-lfs.github.com
/// /spec/v1` (and `https://hawser.github.com/spec/v1` from Git LFS's earliest releases).
package enum GitLFSPointer {
  private static let prefixes = [
    Data("version https://git-lfs.github.com/spec/".utf8),
    Data("version https://hawser.github.com/spec/".utf8),
  ]

  /// Whether `data` is a Git LFS pointer rather than the file it stands for.
  package static func matches(_ data: Data) -> Bool {
    // Cheap rejection first: every snapshot is checked, and almost none start with "version ".
    guard data.first == UInt8(ascii: "v") else { return false }
    return prefixes.contains { data.starts(with: $0) }
  }
}
