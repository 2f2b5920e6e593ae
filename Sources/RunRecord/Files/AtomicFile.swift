import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one way the package writes a file: references, artifacts, failure records and rewritten
/// test sources all go through it.
///
/// - Readers see the old bytes or the new ones, never a part: the data goes to a temporary file
///   in the destination's folder, which is then renamed over the destination. On Linux the
///   temporary file has no name while it is written (`O_TMPFILE`), so a process killed meanwhile
///   leaves nothing behind; elsewhere, or where the file system lacks it, a hidden named file is
///   used, and one left by a killed process is removed by the next write in its folder.
/// - Missing folders are created.
/// - A symbolic link is written through: its target gets the new bytes and the link stays.
/// - An existing file keeps its permissions; a read-only one is refused rather than replaced.
package enum AtomicFile {
  /// Writes `data` to `url`.
  package static func write(_ data: Data, to url: URL) throws(SnapshotFileError) {
    let destination = try resolveSymbolicLinks(url)
    let folder = (destination as NSString).deletingLastPathComponent
    let folderPath = folder.isEmpty ? "." : folder
    do {
      try createFolder(folderPath)
    } catch {
      // Named as the folder this write needs, whichever parent stood in the way.
      throw .unwritable(URL(fileURLWithPath: folderPath), error.cause)
    }
    var status = stat()
    let exists = stat(destination, &status) == 0
    if exists {
      if status.st_mode & S_IFMT == S_IFDIR { throw .isFolder(url) }
      // The permission bits, not access(2): a test run as root may write anything, and would
      // otherwise replace a file its owner made read-only.
      if status.st_mode & 0o222 == 0 { throw .readOnly(url) }
    }
    TemporaryFiles.removeStrays(inFolder: folderPath)
    let permissions = exists ? status.st_mode & 0o7777 : nil
    if try UnnamedFile.write(
      data,
      inFolder: folderPath,
      to: destination,
      replacing: exists,
      permissions: permissions,
      reportingAs: url
    ) {
      return
    }
    let temporary = TemporaryFiles.path(for: destination)
    try writeNewFile(data, atPath: temporary, permissions: permissions, reportingAs: url)
    try moveIntoPlace(temporary, over: destination, reportingAs: url)
  }

  /// Creates `path` and its missing parents, failing with the system's reason and the path that
  /// could not be created (Foundation's own error says only "the operation could not be
  /// completed" here).
  static func createFolder(_ path: String) throws(SnapshotFileError) {
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw .unwritable(URL(fileURLWithPath: path), String(cString: strerror(ENOTDIR)))
      }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty && parent != path { try createFolder(parent) }
    guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
      throw .unwritable(URL(fileURLWithPath: path), String(cString: strerror(errno)))
    }
  }

  /// Renames `temporary` over `destination`, removing `temporary` if that fails.
  static func moveIntoPlace(
    _ temporary: String,
    over destination: String,
    reportingAs url: URL
  ) throws(SnapshotFileError) {
    guard rename(temporary, destination) == 0 else {
      let cause = String(cString: strerror(errno))
      _ = unlink(temporary)
      throw .unwritable(url, cause)
    }
  }

  /// The file a path finally names once every symbolic link in its last component is followed;
  /// the path itself when it is not a link. A link to a missing file names that file.
  static func resolveSymbolicLinks(_ url: URL) throws(SnapshotFileError) -> String {
    var path = url.path
    for _ in 0..<40 {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
        return path
      }
      path =
        target.hasPrefix("/")
        ? target
        : ((path as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(target)
    }
    throw .unwritable(url, String(cString: strerror(ELOOP)))
  }

  /// Creates `path` (which must not exist) holding `data`, with `permissions` when given.
  private static func writeNewFile(
    _ data: Data,
    atPath path: String,
    permissions: mode_t?,
    reportingAs url: URL
  ) throws(SnapshotFileError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw .unwritable(url, String(cString: strerror(errno))) }
    var failure: Int32 = 0
    if let permissions, fchmod(descriptor, permissions) != 0 { failure = errno }
    if failure == 0 { failure = writeAll(data, to: descriptor) }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    guard failure == 0 else {
      _ = unlink(path)
      throw .unwritable(url, String(cString: strerror(failure)))
    }
  }

  /// Writes every byte, retrying short and interrupted writes; returns `errno` or 0.
  static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
    data.withUnsafeBytes { bytes -> Int32 in
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return 0
    }
  }
}

/// write(2), under a name the enum's own `write` does not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
