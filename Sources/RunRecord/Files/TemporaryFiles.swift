import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The hidden files ``AtomicFile`` writes before renaming them into place, and the removal of
/// those a killed process left behind.
///
/// A temporary file is named `.<destination name>.<writer's process id>.<random>.tmp`, so the
/// next write in its folder can tell a file whose writer is gone (removed) from one that another
/// live process is still writing (left alone), and `snapshot-testing prune` can list them.
package enum TemporaryFiles {
  /// A hidden name beside `path` that no other write uses.
  static func path(for path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    let padded = String(repeating: "0", count: 16 - random.count) + random
    let name = ".\((path as NSString).lastPathComponent).\(getpid()).\(padded).tmp"
    return folder.isEmpty ? name : folder + "/" + name
  }

  /// Whether `fileName` is a temporary file of ours whose writer has exited: what a killed write
  /// left behind.
  package static func isStray(_ fileName: String) -> Bool {
    guard let writer = writer(of: fileName) else { return false }
    return !isRunning(writer)
  }

  /// The process id in the name of a temporary file of ours; 0 for the `.<name>.<UUID>.tmp` of
  /// earlier versions, which has none; `nil` for a file that is not ours.
  ///
  /// Only the exact form ``path(for:)`` writes is ours (a decimal process id without sign or
  /// leading zeros, 16 lowercase ASCII hex digits): a file it claims may be deleted, so a name
  /// that merely parses, such as `+12` or full-width digits, is not.
  ///
  /// The name is read as UTF-8 bytes, not as characters: a name may end in a character that joins
  /// the next one into a single character (U+070F, which prepends itself to what follows), and
  /// the dot after it would be no separator at all.
  static func writer(of fileName: String) -> pid_t? {
    let bytes = Array(fileName.utf8)
    let dot = UInt8(ascii: ".")
    guard bytes.first == dot, bytes.count > 4, Array(bytes.suffix(4)) == Array(".tmp".utf8)
    else { return nil }
    let parts = bytes.dropLast(4).split(separator: dot, omittingEmptySubsequences: false)
    guard parts.count >= 3 else { return nil }
    let last = parts[parts.count - 1]
    if parts.count >= 4 {
      let digits = String(decoding: parts[parts.count - 2], as: UTF8.self)
      if let pid = pid_t(digits), pid > 0, String(pid) == digits,
        last.count == 16, last.allSatisfy(isLowercaseHexDigit)
      {
        return pid
      }
    }
    // The length too: UUID(uuidString:) stops at a NUL, and would take a UUID followed by NULs.
    return last.count == 36 && UUID(uuidString: String(decoding: last, as: UTF8.self)) != nil
      ? 0 : nil
  }

  private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }

  /// Removes the temporary files and folders in `folder` whose writer has exited: what a killed
  /// write left. Each folder is looked at once per process; this process never leaves one
  /// itself.
  static func removeStrays(inFolder folder: String) {
    _ = cleanedFolders.value(for: folder) {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
        // A folder reference's temporary folder too (``FolderContents/writeFolder(at:)``).
        if isStray(name) { removeTree(folder + "/" + name) }
      }
      return true
    }
  }

  private static let cleanedFolders = LockedCache<String, Bool>()

  /// Whether process `pid` exists (0, an earlier version's writer, is taken as gone).
  private static func isRunning(_ pid: pid_t) -> Bool {
    guard pid > 0, pid != getpid() else { return pid == getpid() }
    return kill(pid, 0) == 0 || errno == EPERM
  }
}
