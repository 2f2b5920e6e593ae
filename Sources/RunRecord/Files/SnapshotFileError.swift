import Foundation

/// A file-system failure while reading or writing a snapshot file, with a message that names the
/// file and the cause.
package struct SnapshotFileError: Error, CustomStringConvertible, Equatable {
  /// The whole message, naming the file.
  package var description: String
  /// The cause alone, in a few words ("Permission denied"), for messages that name the file
  /// their own way.
  package var cause: String

  package static func isFolder(_ url: URL) -> Self {
    Self(
      description: """
        The reference "\(url.path)" is a folder, not a file. Move or delete the folder so the \
        snapshot can be stored there.
        """,
      cause: "it is a folder"
    )
  }

  package static func isFile(_ url: URL) -> Self {
    Self(
      description: """
        The reference "\(url.path)" is a file, but this strategy stores a folder there. Move or \
        delete the file (it may have been recorded with another strategy) so the folder can be \
        stored.
        """,
      cause: "it is a file"
    )
  }

  /// A folder reference that cannot be read or compared with, for the reason `error` gives.
  package static func folder(_ url: URL, _ error: FolderContentsError) -> Self {
    if case .notAFolder = error { return .isFile(url) }
    return Self(
      description: #"The reference folder "\#(url.path)" cannot be used: \#(error.description)"#,
      cause: error.description
    )
  }

  package static func unreadable(_ url: URL, _ reason: String) -> Self {
    Self(
      description: #"The reference "\#(url.path)" could not be read: \#(reason)."#,
      cause: reason
    )
  }

  package static func gitLFSPointer(_ url: URL) -> Self {
    Self(
      description: """
        The reference "\(url.path)" is a Git LFS pointer, not the snapshot itself: its content \
        was never downloaded. Run "git lfs pull" (or check out with Git LFS installed) and re-run \
        the test.
        """,
      cause: "it is a Git LFS pointer"
    )
  }

  package static func notUTF8(_ url: URL) -> Self {
    Self(
      description: """
        The reference "\(url.path)" is not valid UTF-8 text, so it cannot be compared as text. It \
        may have been overwritten by binary data or saved in another encoding; re-record it.
        """,
      cause: "it is not valid UTF-8"
    )
  }

  package static func unwritable(_ url: URL, _ reason: String) -> Self {
    Self(description: #"Could not write "\#(url.path)": \#(reason)."#, cause: reason)
  }

  package static func readOnly(_ url: URL) -> Self {
    Self(
      description: """
        Could not write "\(url.path)": the file is read-only, so it was left as it is. Make it \
        writable (chmod u+w) if it should be replaced.
        """,
      cause: "the file is read-only"
    )
  }

  /// A short cause from a Foundation error, in the system's words where it has them
  /// ("Permission denied", "No such file or directory").
  package static func reason(of error: any Error) -> String {
    if let fileError = error as? SnapshotFileError { return fileError.cause }
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return SystemError(Int32(underlying.code)).text
    }
    if let cocoa = error as? CocoaError {
      switch cocoa.code {
      case .fileReadNoSuchFile, .fileNoSuchFile: return SystemError(ENOENT).text
      case .fileReadNoPermission, .fileWriteNoPermission: return SystemError(EACCES).text
      case .fileWriteOutOfSpace: return SystemError(ENOSPC).text
      case .fileWriteVolumeReadOnly: return SystemError(EROFS).text
      default: break
      }
    }
    return nsError.localizedDescription
  }
}
