import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file with no name (Linux's `O_TMPFILE`) and gives it its name only once it is
/// complete, so that a process killed while writing leaves nothing in the folder.
package enum UnnamedFile {
  /// Whether to use unnamed files where the system has them; tests turn it off to exercise the
  /// named fallback, by binding ``Disabled`` in ``TestHooks``.
  static var isEnabled: Bool { TestHooks.value(Disabled.self) != true }

  /// Bound to `true`, writes use the named fallback.
  package enum Disabled: TestHookKey {
    package typealias Value = Bool
  }

  /// Writes `data` as `destination`. Returns `false`, having changed nothing, where unnamed files
  /// are not available (another system, an old kernel, a file system without them, no `/proc`),
  /// so the caller falls back to a named temporary file.
  static func write(
    _ data: Data,
    inFolder folder: String,
    to destination: String,
    replacing exists: Bool,
    permissions: mode_t?,
    reportingAs url: URL
  ) throws(SnapshotFileError) -> Bool {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      guard isEnabled else { return false }
      let descriptor = open(folder, unnamedFileFlag | O_WRONLY | O_CLOEXEC, 0o666)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      var failure: Int32 = 0
      if let permissions, fchmod(descriptor, permissions) != 0 { failure = errno }
      if failure == 0 { failure = AtomicFile.writeAll(data, to: descriptor) }
      guard failure == 0 else { throw .unwritable(url, String(cString: strerror(failure))) }
      return try name(descriptor, destination, replacing: exists, reportingAs: url)
    #else
      return false
    #endif
  }

  #if os(Linux) && (arch(x86_64) || arch(arm64))
    /// `O_TMPFILE`, which Glibc's module does not export: `__O_TMPFILE | O_DIRECTORY`.
    private static let unnamedFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Links the finished file into place: directly when nothing is there, else under a
    /// temporary name renamed over the destination (the only moment a name exists).
    private static func name(
      _ descriptor: Int32,
      _ destination: String,
      replacing exists: Bool,
      reportingAs url: URL
    ) throws(SnapshotFileError) -> Bool {
      let source = "/proc/self/fd/\(descriptor)"
      if !exists {
        if linkat(AT_FDCWD, source, AT_FDCWD, destination, AT_SYMLINK_FOLLOW) == 0 { return true }
        // Created meanwhile by someone else: replace it below, as if it had been there.
        guard errno == EEXIST else { return try unavailableOrFailure(errno, url) }
      }
      let temporary = TemporaryFiles.path(for: destination)
      guard linkat(AT_FDCWD, source, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else {
        return try unavailableOrFailure(errno, url)
      }
      try AtomicFile.moveIntoPlace(temporary, over: destination, reportingAs: url)
      return true
    }

    /// `false` (fall back) when linking failed because `/proc` is missing; else the error.
    private static func unavailableOrFailure(
      _ code: Int32,
      _ url: URL
    ) throws(SnapshotFileError) -> Bool {
      if code == ENOENT && access("/proc/self/fd", F_OK) != 0 { return false }
      throw .unwritable(url, String(cString: strerror(code)))
    }
  #endif
}
