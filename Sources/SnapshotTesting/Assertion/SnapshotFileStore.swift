import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is on disk where a reference should be.
enum StoredReference {
  case missing
  case present(Data)
}

/// A file-system failure of the assertion, with a message that names the file and the cause.
struct SnapshotFileError: Error, CustomStringConvertible {
  var description: String

  static func isFolder(_ url: URL) -> Self {
    Self(
      description: """
        The reference "\(url.path)" is a folder, not a file. Move or delete the folder so the \
        snapshot can be stored there.
        """
    )
  }

  static func unreadable(_ url: URL, _ reason: String) -> Self {
    Self(description: #"The reference "\#(url.path)" could not be read: \#(reason)."#)
  }

  static func gitLFSPointer(_ url: URL) -> Self {
    Self(
      description: """
        The reference "\(url.path)" is a Git LFS pointer, not the snapshot itself: its content \
        was never downloaded. Run "git lfs pull" (or check out with Git LFS installed) and re-run \
        the test.
        """
    )
  }

  static func notUTF8(_ url: URL) -> Self {
    Self(
      description: """
        The reference "\(url.path)" is not valid UTF-8 text, so it cannot be compared as text. It \
        may have been overwritten by binary data or saved in another encoding; re-record it.
        """
    )
  }

  static func unwritable(_ url: URL, _ reason: String) -> Self {
    Self(description: #"Could not write "\#(url.path)": \#(reason)."#)
  }
}

/// Reads and writes snapshot files. Writes are atomic: the bytes go to a temporary file in the
/// same folder, which is then renamed over the destination, so an interrupted run never leaves a
/// half-written reference and never loses the previous one.
enum SnapshotFileStore {
  /// The first bytes of a Git LFS pointer file.
  static let gitLFSPrefix = Data("version https://git-lfs.github.com/spec/".utf8)

  /// Reads the reference at `url`, refusing folders, unreadable files and Git LFS pointers.
  static func read(_ url: URL) throws(SnapshotFileError) -> StoredReference {
    // lstat first: a broken or looping symbolic link is there (and must not be recorded over),
    // even though following it fails.
    var linkStatus = stat()
    guard lstat(url.path, &linkStatus) == 0 else {
      // ENOTDIR: a parent is a file, so there is no reference (and writing it will say why).
      if errno == ENOENT || errno == ENOTDIR { return .missing }
      throw .unreadable(url, String(cString: strerror(errno)))
    }
    var status = stat()
    guard stat(url.path, &status) == 0 else {
      throw .unreadable(url, String(cString: strerror(errno)))
    }
    if status.st_mode & S_IFMT == S_IFDIR { throw .isFolder(url) }
    // Reading a pipe or a device could block forever or never end.
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .unreadable(url, "it is not a regular file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(url, reason(of: error))
    }
    if data.starts(with: gitLFSPrefix) { throw .gitLFSPointer(url) }
    return .present(data)
  }

  /// Writes `data` to `url` atomically, creating the folder if needed.
  static func write(_ data: Data, to url: URL) throws(SnapshotFileError) {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw .unwritable(folder, reason(of: error))
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw .isFolder(url)
    }
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString).tmp",
      isDirectory: false
    )
    do {
      try data.write(to: temporary)
    } catch {
      throw .unwritable(url, reason(of: error))
    }
    guard rename(temporary.path, url.path) == 0 else {
      let cause = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw .unwritable(url, cause)
    }
  }

  private static func reason(of error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain,
      let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(code.rawValue))
    }
    return nsError.localizedDescription
  }
}
