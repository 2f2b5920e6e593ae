import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An `errno` value, with the text the system gives it.
package struct SystemError: Error, Equatable, Sendable {
  /// The `errno` value.
  package let code: Int32

  package init(_ code: Int32) { self.code = code }

  /// The calling thread's `errno`, read right after the call that failed.
  package static var current: SystemError { SystemError(errno) }

  /// `strerror`'s text, e.g. "No such file or directory".
  package var text: String { SystemCalls.errorText(code) }
}

/// The POSIX calls on paths and descriptors that the package's files go through, behind a safe
/// interface: paths are Swift strings, results are values, failures are ``SystemError``s.
///
/// This is `RunRecord`'s owner of unsafe code (ARCHITECTURE.md, "Checked rules"): a Swift string
/// becomes a C string, a `stat` buffer is filled, and bytes are handed to `write`, here and in no
/// other file of the module. Every call is bounded by a Swift value's own count. The few other
/// library calls whose signatures hold a pointer (`inet_pton`, Foundation's property list
/// parse) are wrapped here too, so that the modules above this one stay safe code.
package enum SystemCalls {
  /// `strerror(code)`.
  package static func errorText(_ code: Int32) -> String {
    unsafe String(cString: strerror(code))
  }

  /// `stat` of `path`, following symbolic links.
  package static func status(ofPath path: String) -> Result<stat, SystemError> {
    var status = stat()
    return unsafe stat(path, &status) == 0 ? .success(status) : .failure(.current)
  }

  /// `lstat` of `path`: a symbolic link itself, not its target.
  package static func linkStatus(ofPath path: String) -> Result<stat, SystemError> {
    var status = stat()
    return unsafe lstat(path, &status) == 0 ? .success(status) : .failure(.current)
  }

  /// Whether `path` names a folder (following links); `nil` when nothing is there to stat.
  package static func isFolder(_ path: String) -> Bool? {
    guard case .success(let status) = status(ofPath: path) else { return nil }
    return status.st_mode & S_IFMT == S_IFDIR
  }

  /// Whether anything, even a dangling link's target aside, answers to `path` (`access(F_OK)`).
  package static func exists(_ path: String) -> Bool {
    unsafe access(path, F_OK) == 0
  }

  /// `mkdir(path, mode)`.
  package static func makeFolder(_ path: String, mode: mode_t = 0o777) -> SystemError? {
    unsafe mkdir(path, mode) == 0 ? nil : .current
  }

  /// Whether `path` itself is a folder: `lstat`, so a symbolic link to a folder is not; `nil`
  /// when nothing is there.
  package static func isFolder(_ path: String, followingLinks: Bool) -> Bool? {
    let result = followingLinks ? status(ofPath: path) : linkStatus(ofPath: path)
    guard case .success(let status) = result else { return nil }
    return status.st_mode & S_IFMT == S_IFDIR
  }

  /// `rmdir(path)`: removes an empty folder.
  @discardableResult
  package static func removeFolder(_ path: String) -> SystemError? {
    unsafe rmdir(path) == 0 ? nil : .current
  }

  /// `unlink(path)`.
  @discardableResult
  package static func removeFile(_ path: String) -> SystemError? {
    unsafe unlink(path) == 0 ? nil : .current
  }

  /// `rename(source, destination)`: atomic within one file system.
  package static func rename(_ source: String, to destination: String) -> SystemError? {
    systemRename(source, destination) == 0 ? nil : .current
  }

  /// `open(path, flags, mode)`: the new descriptor.
  package static func open(
    _ path: String,
    flags: Int32,
    mode: mode_t = 0o666
  ) -> Result<Int32, SystemError> {
    let descriptor = systemOpen(path, flags, mode)
    return descriptor >= 0 ? .success(descriptor) : .failure(.current)
  }

  /// `linkat` of `source` (followed if it is a link, as `/proc/self/fd/N` is) to `destination`.
  package static func hardLink(_ source: String, to destination: String) -> SystemError? {
    unsafe linkat(AT_FDCWD, source, AT_FDCWD, destination, AT_SYMLINK_FOLLOW) == 0
      ? nil : .current
  }

  /// `realpath(path)`: every link and `..` resolved; `nil` when `path` does not exist.
  package static func resolvedPath(_ path: String) -> String? {
    guard let resolved = unsafe realpath(path, nil) else { return nil }
    defer { unsafe free(resolved) }
    return unsafe String(cString: resolved)
  }

  /// `chmod(path, mode)`.
  @discardableResult
  package static func changeMode(_ path: String, to mode: mode_t) -> SystemError? {
    unsafe chmod(path, mode) == 0 ? nil : .current
  }

  /// `symlink(target, path)`: a link at `path` whose text is `target`.
  package static func makeSymbolicLink(_ path: String, to target: String) -> SystemError? {
    unsafe symlink(target, path) == 0 ? nil : .current
  }

  /// Exchanges the two paths in one step (`renameat2` with `RENAME_EXCHANGE`); `false` where the
  /// system or the file system has no such call, or it failed.
  package static func exchange(_ first: String, _ second: String) -> Bool {
    guard let exchange = unsafe renameExchange else { return false }
    return unsafe exchange(AT_FDCWD, first, AT_FDCWD, second, 2 /* RENAME_EXCHANGE */) == 0
  }

  /// `renameat2`, looked up at run time: Swift's Glibc module does not declare it.
  private static let renameExchange:
    (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? =
      {
        #if os(Linux)
          guard let symbol = unsafe dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2")
          else { return nil }
          return unsafe unsafeBitCast(
            symbol,
            to: (@convention(c) (
              Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
            ) -> Int32).self
          )
        #else
          return nil
        #endif
      }()

  /// The names in the folder at `path`, `.` and `..` left out, in the order the system gives.
  package static func folderEntries(
    _ path: String
  ) -> Result<[(name: String, isUTF8: Bool)], SystemError> {
    guard let stream = unsafe opendir(path) else { return .failure(.current) }
    defer { unsafe closedir(stream) }
    var names: [(name: String, isUTF8: Bool)] = []
    while let item = unsafe readdir(stream) {
      // A name that is not UTF-8 has no `String` that names the file; the caller is told.
      let entry = unsafe withUnsafeBytes(of: item.pointee.d_name) { bytes in
        let raw = unsafe bytes.prefix { $0 != 0 }
        let name = unsafe String(decoding: raw, as: UTF8.self)
        return (name: name, isUTF8: unsafe name.utf8.elementsEqual(raw))
      }
      if entry.name != "." && entry.name != ".." { names.append(entry) }
    }
    return .success(names)
  }

  /// `readlink(path)`: a symbolic link's target, as the bytes the file system holds (Foundation
  /// would repair a target that is not UTF-8 into another path).
  package static func linkTarget(_ path: String) -> Result<[UInt8], SystemError> {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = unsafe readlink(path, &buffer, buffer.count)
    guard count >= 0 else { return .failure(.current) }
    return .success(buffer[..<count].map { UInt8(bitPattern: $0) })
  }

  /// `read` into the bytes of `buffer` at `range` (all of them by default), retrying when
  /// interrupted: the count read, 0 at the end of the file.
  package static func read(
    _ descriptor: Int32,
    into buffer: inout MutableSpan<UInt8>,
    range: Range<Int>? = nil
  ) -> Result<Int, SystemError> {
    let range = range ?? 0..<buffer.count
    precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "Outside the buffer")
    while true {
      let count = unsafe buffer.withUnsafeMutableBufferPointer { bytes in
        unsafe systemRead(
          descriptor,
          bytes.baseAddress.map { unsafe $0 + range.lowerBound },
          range.count
        )
      }
      if count >= 0 { return .success(count) }
      if errno != EINTR { return .failure(.current) }
    }
  }

  /// Writes every byte of `bytes` to `descriptor`, retrying short and interrupted writes.
  package static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> SystemError?
  {
    unsafe bytes.withUnsafeBytes { buffer -> SystemError? in
      var offset = 0
      while offset < buffer.count {
        let written = unsafe systemWrite(
          descriptor,
          buffer.baseAddress! + offset,
          buffer.count - offset
        )
        if written < 0 {
          if errno == EINTR { continue }
          return .current
        }
        offset += written
      }
      return nil
    }
  }

  /// The 16 bytes of the IPv6 address `text` (`inet_pton(AF_INET6)`), or `nil` when `text` is
  /// not one.
  package static func ipv6Address(_ text: String) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: 16)
    let parsed = unsafe bytes.withUnsafeMutableBytes { buffer in
      unsafe inet_pton(AF_INET6, text, buffer.baseAddress)
    }
    return parsed == 1 ? bytes : nil
  }

  /// `PropertyListSerialization`'s parse of a property list (XML, binary or OpenStep), as that
  /// gives it. Wrapped here because its signature holds a pointer (to the format it found, which
  /// this passes as `nil`).
  package static func propertyList(from data: Data) throws -> Any {
    try unsafe PropertyListSerialization.propertyList(from: data, options: [], format: nil)
  }
}

// The C functions, under names the enum's own members do not hide.
private func systemRename(_ source: String, _ destination: String) -> Int32 {
  unsafe rename(source, destination)
}

private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  unsafe open(path, flags, mode)
}

private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  unsafe read(descriptor, bytes, count)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  unsafe write(descriptor, bytes, count)
}
