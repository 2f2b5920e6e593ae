import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files of a folder, by relative path: what a folder reference (`.directory`) holds.
///
/// Regular files keep their bytes and whether they are executable (any `x` bit; other mode bits
/// vary with the umask and are not kept), symbolic links keep their target's text and are never
/// followed. Folders are implied by the paths of what they hold: an empty folder is not kept,
/// as Git keeps none.
///
/// The engine compares these as bytes (``encoded()``), so one memory compare decides that
/// nothing changed; the encoding is the engine's and the tool's own and never written to disk.
package struct FolderContents: Equatable, Sendable {
  /// What a path holds.
  package enum Kind: UInt8, Sendable {
    case file = 0x66  // "f"
    case executable = 0x78  // "x"
    case symbolicLink = 0x6C  // "l"
  }

  package struct Entry: Equatable, Sendable {
    /// The path relative to the folder, `/`-separated: `docs/index.md`.
    package var path: String
    package var kind: Kind
    /// A file's bytes, or a link's target as UTF-8.
    package var data: Data

    package init(path: String, kind: Kind, data: Data) {
      self.path = path
      self.kind = kind
      self.data = data
    }
  }

  /// The entries, sorted by path (bytewise).
  package private(set) var entries: [Entry]

  /// The entries, sorted; fails naming the path when two share a path, a path is not relative
  /// or a link leaves the folder.
  package init(entries: [Entry]) throws(FolderContentsError) {
    let sorted = entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    for (earlier, later) in zip(sorted, sorted.dropFirst()) {
      if earlier.path == later.path { throw .invalidPath(later.path, "it is listed twice") }
      // `a` and `a/b`: one path cannot be a file and a folder at once.
      if later.path.hasPrefix(earlier.path + "/") {
        throw .invalidPath(earlier.path, "it is a file and also holds \"\(later.path)\"")
      }
    }
    for entry in sorted { try Self.check(entry) }
    self.entries = sorted
  }

  private init(sortedEntries: [Entry]) { entries = sortedEntries }

  /// Limits on what is read, so a wrong path (a home folder) fails fast rather than reading
  /// gigabytes.
  package struct Limits: Equatable, Sendable {
    package var fileCount: Int
    package var byteCount: Int

    package init(fileCount: Int, byteCount: Int) {
      self.fileCount = fileCount
      self.byteCount = byteCount
    }

    /// 100,000 entries and 2 GiB.
    package static let standard = Limits(fileCount: 100_000, byteCount: 2 << 30)
  }

  /// Checks a relative path and, for a link, that its target stays inside the folder.
  static func check(_ entry: Entry) throws(FolderContentsError) {
    let path = entry.path
    let components = path.split(separator: "/", omittingEmptySubsequences: false)
    guard !path.isEmpty, !path.hasPrefix("/"),
      !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
      !path.utf8.contains(0)
    else {
      throw .invalidPath(
        path,
        "a path must be relative, with no empty, \".\" or \"..\" component"
      )
    }
    guard entry.kind == .symbolicLink else { return }
    guard let target = String(validating: entry.data, as: UTF8.self), !target.isEmpty,
      !target.utf8.contains(0)
    else {
      throw .invalidPath(path, "the link's target is empty or not UTF-8")
    }
    guard !target.hasPrefix("/") else { throw .linkOutside(path, target) }
    // Resolved by name from the link's folder: never allowed to climb above the root.
    var depth = components.count - 1
    for part in target.split(separator: "/") {
      if part == ".." {
        depth -= 1
        if depth < 0 { throw .linkOutside(path, target) }
      } else if part != "." {
        depth += 1
      }
    }
  }

  // MARK: - Encoding

  static let magic = Data("snapshot-testing folder 1\n".utf8)

  /// The bytes the engine compares: a header, then per entry its kind, path and data with their
  /// lengths. Two equal folders encode to equal bytes.
  package func encoded() -> Data {
    var size = Self.magic.count
    for entry in entries { size += 1 + 4 + entry.path.utf8.count + 8 + entry.data.count }
    var data = Data(capacity: size)
    data.append(Self.magic)
    for entry in entries {
      data.append(entry.kind.rawValue)
      Self.append(UInt32(entry.path.utf8.count), to: &data)
      data.append(contentsOf: entry.path.utf8)
      Self.append(UInt64(entry.data.count), to: &data)
      data.append(entry.data)
    }
    return data
  }

  /// Reads ``encoded()`` back; `nil` for bytes it did not write.
  package init?(decoding data: Data) {
    // Indices from 0 below; a slice is rebased (a copy), what this file encodes never is one.
    let data = data.startIndex == 0 ? data : Data(data)
    guard data.starts(with: Self.magic) else { return nil }
    var offset = Self.magic.count
    var entries: [Entry] = []
    func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
      guard data.count - offset >= MemoryLayout<T>.size else { return nil }
      var value: T = 0
      for index in 0..<MemoryLayout<T>.size {
        value |= T(data[offset + index]) << (8 * index)
      }
      offset += MemoryLayout<T>.size
      return value
    }
    while offset < data.count {
      guard let kind = Kind(rawValue: data[offset]) else { return nil }
      offset += 1
      guard let pathCount = integer(UInt32.self), data.count - offset >= Int(pathCount)
      else { return nil }
      let pathBytes = data[offset..<offset + Int(pathCount)]
      offset += Int(pathCount)
      guard let path = String(validating: pathBytes, as: UTF8.self),
        let byteCount = integer(UInt64.self), UInt64(data.count - offset) >= byteCount
      else { return nil }
      entries.append(Entry(path: path, kind: kind, data: data[offset..<offset + Int(byteCount)]))
      offset += Int(byteCount)
    }
    self.init(sortedEntries: entries)
  }

  private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  // MARK: - Reading

  /// Reads the folder at `url`: `nil` when nothing is there.
  ///
  /// Fails naming the path for a file where the folder should be, an entry that is neither a
  /// file, a folder nor a link (a pipe, a socket), a file that cannot be read or changes size
  /// while it is read, a link whose target leaves the folder, and a folder beyond `limits`.
  ///
  /// - Complexity: O(n) in the number of entries and bytes, plus sorting the paths.
  package static func read(
    _ url: URL,
    limits: Limits = .standard
  ) throws(FolderContentsError) -> FolderContents? {
    guard let encoded = try readEncoded(url, limits: limits) else { return nil }
    guard let contents = FolderContents(decoding: encoded) else {
      throw .unreadable(url.path, "its contents could not be encoded")
    }
    return contents
  }

  /// ``read(_:limits:)`` as the bytes ``encoded()`` gives, read straight into one buffer
  /// (``FolderListing/readEncoded()``). ``init(decoding:)`` of the result shares the buffer.
  package static func readEncoded(
    _ url: URL,
    limits: Limits = .standard
  ) throws(FolderContentsError) -> Data? {
    try FolderListing.list(url, limits: limits)?.readEncoded()
  }

  /// Whether the folder at `url` reads as exactly `encoded` (what ``readEncoded(_:limits:)``
  /// would return), found without holding the folder in memory: each file is read in pieces into
  /// one small buffer and compared with its place in `encoded`, and the first difference ends
  /// the walk. `false` for anything else, a folder that cannot be read included: the caller then
  /// reads it in full, which says why.
  ///
  /// A matching assertion compares this way, so it reads the reference once and allocates no
  /// second copy of the folder.
  package static func folder(at url: URL, matches encoded: Data) -> Bool {
    guard let listing = try? FolderListing.list(url), listing.encodedSize == encoded.count
    else { return false }
    let found = listing.found
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    defer { chunk.deallocate() }
    return encoded.withUnsafeBytes { expected -> Bool in
      var offset = 0
      func same(_ bytes: some Collection<UInt8>) -> Bool {
        for byte in bytes {
          guard expected[offset] == byte else { return false }
          offset += 1
        }
        return true
      }
      func same<T: FixedWidthInteger>(integer value: T) -> Bool {
        withUnsafeBytes(of: value.littleEndian) { same($0) }
      }
      guard same(magic) else { return false }
      for entry in found {
        guard same(CollectionOfOne(entry.kind.rawValue)),
          same(integer: UInt32(entry.path.utf8.count)), same(entry.path.utf8),
          same(integer: UInt64(entry.size))
        else { return false }
        if let target = entry.linkTarget {
          guard same(target.utf8) else { return false }
          continue
        }
        let region = UnsafeRawBufferPointer(rebasing: expected[offset..<offset + entry.size])
        guard fileMatches(url.path + "/" + entry.path, region, chunk: chunk) else { return false }
        offset += entry.size
      }
      return offset == expected.count
    }
  }

  // MARK: - Writing

  /// Writes the entries as the folder at `url`, replacing what was there as one unit.
  ///
  /// Everything is written into a hidden sibling folder (named as ``TemporaryFiles`` names a
  /// temporary file, so a killed write's leftovers are recognised and removed), which then takes
  /// the folder's place: exchanged with the old folder in one `renameat2(RENAME_EXCHANGE)` where
  /// the system has it, else by two renames. Readers see the old folder or the new one, never a
  /// mix; files the new contents lack are gone with the old folder. A symbolic link at `url` is
  /// written through; a read-only folder is refused; a file at `url` is refused.
  package func writeFolder(at url: URL) throws(SnapshotFileError) {
    let destination = try AtomicFile.resolveSymbolicLinks(url)
    let parent = (destination as NSString).deletingLastPathComponent
    let parentPath = parent.isEmpty ? "." : parent
    do {
      try AtomicFile.createFolder(parentPath)
    } catch {
      throw .unwritable(URL(fileURLWithPath: parentPath), error.cause)
    }
    var status = stat()
    let exists = lstat(destination, &status) == 0
    if exists {
      guard status.st_mode & S_IFMT == S_IFDIR else { throw .isFile(url) }
      if status.st_mode & 0o222 == 0 { throw .readOnly(url) }
    }
    TemporaryFiles.removeStrays(inFolder: parentPath)
    let temporary = TemporaryFiles.path(for: destination)
    do {
      try writeTree(at: temporary, reportingAs: url)
      if exists {
        _ = chmod(temporary, status.st_mode & 0o7777)
        try swap(temporary, destination, reportingAs: url)
      } else {
        try AtomicFile.moveIntoPlace(temporary, over: destination, reportingAs: url)
      }
    } catch {
      removeTree(temporary)
      throw error
    }
    // After an exchange, the old folder sits at the temporary name.
    removeTree(temporary)
  }

  /// Creates the folder `path` and every entry inside it.
  private func writeTree(at path: String, reportingAs url: URL) throws(SnapshotFileError) {
    guard mkdir(path, 0o777) == 0 else {
      throw .unwritable(url, String(cString: strerror(errno)))
    }
    var made: Set<String> = []
    for entry in entries {
      let target = path + "/" + entry.path
      // By its bytes: Foundation's `deletingLastPathComponent` traps on a path of one character
      // (`a`) and misses a `/` that a combining mark follows (`x/\u{301}b`).
      let folder =
        entry.path.utf8.lastIndex(of: UInt8(ascii: "/")).map {
          String(entry.path[..<$0])
        } ?? ""
      if !folder.isEmpty, !made.contains(folder) {
        do {
          try AtomicFile.createFolder(path + "/" + folder)
        } catch {
          throw .unwritable(url.appendingPathComponent(folder), error.cause)
        }
        made.insert(folder)
      }
      let entryURL = url.appendingPathComponent(entry.path)
      switch entry.kind {
      case .symbolicLink:
        let linkTarget = String(decoding: entry.data, as: UTF8.self)
        guard symlink(linkTarget, target) == 0 else {
          throw .unwritable(entryURL, String(cString: strerror(errno)))
        }
      case .file, .executable:
        let mode: mode_t = entry.kind == .executable ? 0o777 : 0o666
        let descriptor: Int32
        switch SystemCalls.open(target, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: mode)
        {
        case .success(let opened): descriptor = opened
        case .failure(let failure): throw .unwritable(entryURL, failure.text)
        }
        var failure = SystemCalls.writeAll(entry.data, to: descriptor)
        if close(descriptor) != 0 && failure == nil { failure = .current }
        if let failure { throw .unwritable(entryURL, failure.text) }
      }
    }
  }

  /// Puts the folder `new` at `destination`, leaving the old folder at `new`'s name.
  private func swap(
    _ new: String,
    _ destination: String,
    reportingAs url: URL
  ) throws(SnapshotFileError) {
    if let exchange = Self.renameExchange,
      exchange(AT_FDCWD, new, AT_FDCWD, destination, 2 /* RENAME_EXCHANGE */) == 0
    {
      return
    }
    // No exchange here (another system, a file system without it): move the old folder aside,
    // then the new one in. A crash in between leaves the old folder at a hidden name, which the
    // next write removes; the reference then reads as missing, never as half of each.
    let aside = TemporaryFiles.path(for: destination)
    guard rename(destination, aside) == 0 else {
      throw .unwritable(url, String(cString: strerror(errno)))
    }
    guard rename(new, destination) == 0 else {
      let cause = String(cString: strerror(errno))
      _ = rename(aside, destination)
      throw .unwritable(url, cause)
    }
    _ = rename(aside, new)
  }

  /// `renameat2`, looked up at run time: Swift's Glibc module does not declare it.
  private static let renameExchange:
    (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? =
      {
        #if os(Linux)
          guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
            return nil
          }
          return unsafeBitCast(
            symbol,
            to: (@convention(c) (
              Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
            ) -> Int32).self
          )
        #else
          return nil
        #endif
      }()
}

/// Removes `path` and everything beneath it, never following a symbolic link out of it.
package func removeTree(_ path: String) {
  var status = stat()
  guard lstat(path, &status) == 0 else { return }
  if status.st_mode & S_IFMT == S_IFDIR {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
      removeTree(path + "/" + name)
    }
    _ = rmdir(path)
  } else {
    _ = unlink(path)
  }
}

/// A folder walked but not read: every entry's path, kind and size (and a link's target), sorted
/// by path, checked against the limits and for links that leave it. Files are read later, into
/// one buffer (``readEncoded()``) or a piece at a time against another folder
/// (``matches(folderAt:)``), so a folder that matches its reference is never held in memory.
package struct FolderListing: Sendable {
  struct Found: Sendable, Equatable {
    var path: String
    var kind: FolderContents.Kind
    var size: Int
    var linkTarget: String?
  }

  /// The folder's path.
  package let root: String
  let found: [Found]

  /// Walks the folder at `url`: `nil` when nothing is there; fails, naming the path, as
  /// ``FolderContents/read(_:limits:)`` does.
  package static func list(
    _ url: URL,
    limits: FolderContents.Limits = .standard
  ) throws(FolderContentsError) -> FolderListing? {
    let root = url.path
    var status = stat()
    guard stat(root, &status) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw .unreadable(root, String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(root) }
    var walker = FolderWalker(root: root, limits: limits)
    try walker.walk("")
    // Sorted by the paths' bytes, compared as arrays (much faster than through `String`).
    let keyed = walker.found.map { (key: Array($0.path.utf8), entry: $0) }
      .sorted { $0.key.lexicographicallyPrecedes($1.key) }
    return FolderListing(root: root, found: keyed.map(\.entry))
  }

  /// The size of ``readEncoded()``'s result.
  var encodedSize: Int {
    var size = FolderContents.magic.count
    for entry in found { size += 1 + 4 + entry.path.utf8.count + 8 + entry.size }
    return size
  }

  /// The folder as the bytes ``FolderContents/encoded()`` gives, each file read straight into its
  /// place; fails naming a file that cannot be read or changed size since the walk.
  package func readEncoded() throws(FolderContentsError) -> Data {
    var data = Data(count: encodedSize)
    var failure: FolderContentsError?
    data.withUnsafeMutableBytes { buffer in
      var offset = 0
      func put(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
          buffer[offset] = byte
          offset += 1
        }
      }
      func put<T: FixedWidthInteger>(integer value: T) {
        withUnsafeBytes(of: value.littleEndian) { put($0) }
      }
      put(FolderContents.magic)
      for entry in found {
        put(CollectionOfOne(entry.kind.rawValue))
        put(integer: UInt32(entry.path.utf8.count))
        put(entry.path.utf8)
        put(integer: UInt64(entry.size))
        if let target = entry.linkTarget {
          put(target.utf8)
          continue
        }
        if let problem = readFile(
          root + "/" + entry.path,
          into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + entry.size])
        ) {
          failure = problem
          return
        }
        offset += entry.size
      }
    }
    if let failure { throw failure }
    return data
  }

  /// Whether the folder at `url` holds what this one does (the same paths, kinds, links and
  /// bytes), compared as `diff -r` would: the two walks first, then each pair of files a piece at
  /// a time, stopping at the first difference. `false` also when either cannot be read: the
  /// caller then reads both in full, which says why.
  package func matches(folderAt url: URL) -> Bool {
    guard let other = try? FolderListing.list(url), other.found == found else { return false }
    let pieceSize = 1 << 18
    let pieces = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * pieceSize, alignment: 16)
    defer { pieces.deallocate() }
    let mine = UnsafeMutableRawBufferPointer(rebasing: pieces[0..<pieceSize])
    let theirs = UnsafeMutableRawBufferPointer(rebasing: pieces[pieceSize...])
    for entry in found where entry.linkTarget == nil {
      guard
        filesMatch(
          root + "/" + entry.path,
          other.root + "/" + entry.path,
          size: entry.size,
          mine,
          theirs
        )
      else { return false }
    }
    return true
  }
}

/// Whether two files hold the same `size` bytes, read into the two buffers a piece at a time.
private func filesMatch(
  _ first: String,
  _ second: String,
  size: Int,
  _ firstPiece: UnsafeMutableRawBufferPointer,
  _ secondPiece: UnsafeMutableRawBufferPointer
) -> Bool {
  let one = open(first, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
  guard one >= 0 else { return false }
  defer { close(one) }
  let two = open(second, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
  guard two >= 0 else { return false }
  defer { close(two) }
  var compared = 0
  while true {
    let count = readFully(one, firstPiece)
    guard count >= 0, readFully(two, secondPiece) == count else { return false }
    if count == 0 { break }
    guard memcmp(firstPiece.baseAddress!, secondPiece.baseAddress!, count) == 0 else {
      return false
    }
    compared += count
  }
  return compared == size
}

/// Reads until `buffer` is full or the file ends; the count read, or -1 on an error.
private func readFully(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
  var filled = 0
  while filled < buffer.count {
    let count = systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
    if count < 0 {
      if errno == EINTR { continue }
      return -1
    }
    if count == 0 { break }
    filled += count
  }
  return filled
}

/// Reads exactly `buffer.count` bytes of the file at `path` into `buffer`; the failure, naming
/// the file, if it cannot, or if the file holds more or fewer bytes than it did when walked.
private func readFile(_ path: String, into buffer: UnsafeMutableRawBufferPointer)
  -> FolderContentsError?
{
  // Never through a link that replaced the file since it was walked.
  let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
  guard descriptor >= 0 else { return .unreadable(path, String(cString: strerror(errno))) }
  defer { close(descriptor) }
  var filled = 0
  while true {
    // One byte more than expected is asked for at the end, to see that the file did not grow.
    var extra: UInt8 = 0
    let count =
      filled < buffer.count
      ? systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      : systemRead(descriptor, &extra, 1)
    if count < 0 {
      if errno == EINTR { continue }
      return .unreadable(path, String(cString: strerror(errno)))
    }
    if count == 0 { break }
    if filled == buffer.count { return .unreadable(path, "it grew while it was read") }
    filled += count
  }
  return filled == buffer.count ? nil : .unreadable(path, "it shrank while it was read")
}

/// Whether the file at `path` holds exactly the bytes of `expected`, read `chunk` at a time.
private func fileMatches(
  _ path: String,
  _ expected: UnsafeRawBufferPointer,
  chunk: UnsafeMutableRawBufferPointer
) -> Bool {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var compared = 0
  while true {
    let count = systemRead(descriptor, chunk.baseAddress!, chunk.count)
    if count < 0 {
      if errno == EINTR { continue }
      return false
    }
    if count == 0 { break }
    guard compared + count <= expected.count,
      memcmp(chunk.baseAddress!, expected.baseAddress! + compared, count) == 0
    else { return false }
    compared += count
  }
  return compared == expected.count
}

/// Walks a folder with `lstat`, noting each entry's path, kind and size (a link's target is
/// read here), without reading files.
private struct FolderWalker {
  typealias Found = FolderListing.Found

  let root: String
  let limits: FolderContents.Limits
  var found: [Found] = []
  var byteCount = 0

  init(root: String, limits: FolderContents.Limits) {
    self.root = root
    self.limits = limits
  }

  mutating func walk(_ relative: String) throws(FolderContentsError) {
    let folder = relative.isEmpty ? root : root + "/" + relative
    guard let stream = opendir(folder) else {
      throw .unreadable(folder, String(cString: strerror(errno)))
    }
    defer { closedir(stream) }
    var names: [String] = []
    while let item = readdir(stream) {
      let (name, isUTF8) = withUnsafeBytes(of: item.pointee.d_name) { bytes in
        let raw = bytes.prefix { $0 != 0 }
        let name = String(decoding: raw, as: UTF8.self)
        return (name, name.utf8.elementsEqual(raw))
      }
      // A name that is not UTF-8 has no `String` that names the file: refused for what it is,
      // not reported as missing under its repaired name.
      guard isUTF8 else {
        let path = relative.isEmpty ? name : relative + "/" + name
        throw .invalidPath(
          root + "/" + path,
          "its name is not UTF-8 (each invalid byte is shown as \u{FFFD})"
        )
      }
      if name != "." && name != ".." { names.append(name) }
    }
    for name in names {
      let path = relative.isEmpty ? name : relative + "/" + name
      let full = root + "/" + path
      var status = stat()
      guard lstat(full, &status) == 0 else {
        throw .unreadable(full, String(cString: strerror(errno)))
      }
      switch status.st_mode & S_IFMT {
      case S_IFDIR:
        try walk(path)
      case S_IFLNK:
        // Read as bytes: Foundation would repair a target that is not UTF-8 into another one.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(full, &buffer, buffer.count)
        guard count >= 0 else { throw .unreadable(full, String(cString: strerror(errno))) }
        guard
          let target = String(
            validating: buffer[..<count].map { UInt8(bitPattern: $0) },
            as: UTF8.self
          )
        else {
          throw .invalidPath(full, "the link's target is not UTF-8")
        }
        try add(Found(path: path, kind: .symbolicLink, size: target.utf8.count, linkTarget: target))
      case S_IFREG:
        let size = Int(status.st_size)
        guard byteCount + size <= limits.byteCount else {
          throw .tooLarge(root, "more than \(limits.byteCount) bytes")
        }
        let kind: FolderContents.Kind = status.st_mode & 0o111 != 0 ? .executable : .file
        try add(Found(path: path, kind: kind, size: size))
      default:
        throw .unsupported(full)
      }
    }
  }

  private mutating func add(_ entry: Found) throws(FolderContentsError) {
    guard found.count < limits.fileCount else {
      throw .tooLarge(root, "more than \(limits.fileCount) files")
    }
    do {
      try FolderContents.check(
        FolderContents.Entry(
          path: entry.path,
          kind: entry.kind,
          data: Data((entry.linkTarget ?? "").utf8)
        )
      )
    } catch {
      // The check names the relative path; the user wants the one on disk.
      if case .linkOutside(_, let target) = error {
        throw .linkOutside(root + "/" + entry.path, target)
      }
      throw error
    }
    byteCount += entry.size
    found.append(entry)
  }
}

/// Why a folder could not be read or taken as a snapshot, naming the path.
package enum FolderContentsError: Error, Equatable, CustomStringConvertible {
  case notAFolder(String)
  case unreadable(String, String)
  case unsupported(String)
  case linkOutside(String, String)
  case tooLarge(String, String)
  case invalidPath(String, String)

  package var description: String {
    switch self {
    case .notAFolder(let path):
      return #""\#(path)" is a file, not a folder."#
    case .unreadable(let path, let reason):
      return #""\#(path)" could not be read: \#(reason)."#
    case .unsupported(let path):
      return """
        "\(path)" is neither a file, a folder nor a symbolic link (a pipe, a socket or a \
        device), which a folder snapshot cannot hold.
        """
    case .linkOutside(let path, let target):
      return """
        The symbolic link "\(path)" points to "\(target)", outside the folder. A folder \
        snapshot records links as links, and only those that stay inside it.
        """
    case .tooLarge(let path, let limit):
      return """
        The folder "\(path)" holds \(limit), beyond what a folder snapshot reads. Snapshot a \
        smaller folder, or raise the limit (.directory(maximumFileCount:maximumByteCount:)).
        """
    case .invalidPath(let path, let reason):
      return #"The path "\#(path)" cannot be part of a folder snapshot: \#(reason)."#
    }
  }
}

/// read(2), under a name no method here hides.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
{
  read(descriptor, buffer, count)
}
