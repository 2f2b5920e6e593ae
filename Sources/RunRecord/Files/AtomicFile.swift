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
    let existing = try? SystemCalls.status(ofPath: destination).get()
    let exists = existing != nil
    if let status = existing {
      if status.st_mode & S_IFMT == S_IFDIR { throw .isFolder(url) }
      // The permission bits, not access(2): a test run as root may write anything, and would
      // otherwise replace a file its owner made read-only.
      if status.st_mode & 0o222 == 0 { throw .readOnly(url) }
    }
    TemporaryFiles.removeStrays(inFolder: folderPath)
    let permissions = existing.map { $0.st_mode & 0o7777 }
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
    if let isFolder = SystemCalls.isFolder(path) {
      guard isFolder else {
        throw .unwritable(URL(fileURLWithPath: path), SystemError(ENOTDIR).text)
      }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty && parent != path { try createFolder(parent) }
    if let failure = SystemCalls.makeFolder(path), failure.code != EEXIST {
      throw .unwritable(URL(fileURLWithPath: path), failure.text)
    }
  }

  /// Renames `temporary` over `destination`, removing `temporary` if that fails.
  static func moveIntoPlace(
    _ temporary: String,
    over destination: String,
    reportingAs url: URL
  ) throws(SnapshotFileError) {
    if let failure = SystemCalls.rename(temporary, to: destination) {
      SystemCalls.removeFile(temporary)
      throw .unwritable(url, failure.text)
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
    throw .unwritable(url, SystemError(ELOOP).text)
  }

  /// Creates `path` (which must not exist) holding `data`, with `permissions` when given.
  private static func writeNewFile(
    _ data: Data,
    atPath path: String,
    permissions: mode_t?,
    reportingAs url: URL
  ) throws(SnapshotFileError) {
    let descriptor: Int32
    switch SystemCalls.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC) {
    case .success(let opened): descriptor = opened
    case .failure(let failure): throw .unwritable(url, failure.text)
    }
    var failure: SystemError?
    if let permissions, fchmod(descriptor, permissions) != 0 { failure = .current }
    if failure == nil { failure = SystemCalls.writeAll(data, to: descriptor) }
    if close(descriptor) != 0 && failure == nil { failure = .current }
    if let failure {
      SystemCalls.removeFile(path)
      throw .unwritable(url, failure.text)
    }
  }
}
