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
      guard
        case .success(let descriptor) = SystemCalls.open(
          folder, flags: unnamedFileFlag | O_WRONLY | O_CLOEXEC)
      else { return false }
      defer { close(descriptor) }
      var failure: SystemError?
      if let permissions, fchmod(descriptor, permissions) != 0 { failure = .current }
      if failure == nil { failure = SystemCalls.writeAll(data, to: descriptor) }
      if let failure { throw .unwritable(url, failure.text) }
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
        guard let failure = SystemCalls.hardLink(source, to: destination) else { return true }
        // Created meanwhile by someone else: replace it below, as if it had been there.
        guard failure.code == EEXIST else { return try unavailableOrFailure(failure, url) }
      }
      let temporary = TemporaryFiles.path(for: destination)
      if let failure = SystemCalls.hardLink(source, to: temporary) {
        return try unavailableOrFailure(failure, url)
      }
      try AtomicFile.moveIntoPlace(temporary, over: destination, reportingAs: url)
      return true
    }

    /// `false` (fall back) when linking failed because `/proc` is missing; else the error.
    private static func unavailableOrFailure(
      _ failure: SystemError,
      _ url: URL
    ) throws(SnapshotFileError) -> Bool {
      if failure.code == ENOENT && !SystemCalls.exists("/proc/self/fd") { return false }
      throw .unwritable(url, failure.text)
    }
  #endif
}
