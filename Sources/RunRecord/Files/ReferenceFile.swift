import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is on disk where a reference should be.
package enum StoredReference: Equatable {
  case missing
  case present(Data)
}

/// Reads references, refusing what cannot be one.
package enum ReferenceFile {
  /// Reads the reference at `url`: `.missing` when nothing is there; an error naming the file
  /// for a folder, a pipe or device, an unreadable file or a Git LFS pointer.
  package static func read(_ url: URL) throws(SnapshotFileError) -> StoredReference {
    let path = url.path
    // lstat first: a broken or looping symbolic link is there (and must not be recorded over),
    // even though following it fails.
    if case .failure(let failure) = SystemCalls.linkStatus(ofPath: path) {
      // ENOTDIR: a parent is a file, so there is no reference (and writing it will say why).
      if failure.code == ENOENT || failure.code == ENOTDIR { return .missing }
      throw .unreadable(url, failure.text)
    }
    let status: stat
    switch SystemCalls.status(ofPath: path) {
    case .success(let found): status = found
    case .failure(let failure): throw .unreadable(url, failure.text)
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
      throw .unreadable(url, SnapshotFileError.reason(of: error))
    }
    if GitLFSPointer.matches(data) { throw .gitLFSPointer(url) }
    return .present(data)
  }

  /// Reads the folder reference at `url` (``FolderContents``) as the bytes the engine compares:
  /// `.missing` when nothing is there; an error naming the path for a file where the folder
  /// should be, and for anything inside that a folder snapshot cannot hold or read.
  package static func readFolder(_ url: URL) throws(SnapshotFileError) -> StoredReference {
    do {
      guard let encoded = try FolderContents.readEncoded(url) else { return .missing }
      return .present(encoded)
    } catch {
      throw .folder(url, error)
    }
  }
}
