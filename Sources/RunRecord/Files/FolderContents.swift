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
    for shift in stride(from: 0, to: T.bitWidth, by: 8) {
      data.append(UInt8(truncatingIfNeeded: value >> shift))
    }
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
    var chunk = [UInt8](repeating: 0, count: 1 << 18)
    let expected = encoded.span
    var offset = 0
    guard matches(magic, expected, at: &offset) else { return false }
    for entry in listing.found {
      guard matches(header(of: entry), expected, at: &offset) else { return false }
      if let target = entry.linkTarget {
        guard matches(target.utf8, expected, at: &offset) else { return false }
        continue
      }
      let region = expected.extracting(offset..<offset + entry.size)
      var piece = chunk.mutableSpan
      guard fileMatches(url.path + "/" + entry.path, region, chunk: &piece) else { return false }
      offset += entry.size
    }
    return offset == expected.count
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
    let status = try? SystemCalls.linkStatus(ofPath: destination).get()
    if let status {
      guard status.st_mode & S_IFMT == S_IFDIR else { throw .isFile(url) }
      if status.st_mode & 0o222 == 0 { throw .readOnly(url) }
    }
    TemporaryFiles.removeStrays(inFolder: parentPath)
    let temporary = TemporaryFiles.path(for: destination)
    do {
      try writeTree(at: temporary, reportingAs: url)
      if let status {
        SystemCalls.changeMode(temporary, to: status.st_mode & 0o7777)
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
    if let failure = SystemCalls.makeFolder(path) { throw .unwritable(url, failure.text) }
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
        if let failure = SystemCalls.makeSymbolicLink(target, to: linkTarget) {
          throw .unwritable(entryURL, failure.text)
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
    if SystemCalls.exchange(new, destination) { return }
    // No exchange here (another system, a file system without it): move the old folder aside,
    // then the new one in. A crash in between leaves the old folder at a hidden name, which the
    // next write removes; the reference then reads as missing, never as half of each.
    let aside = TemporaryFiles.path(for: destination)
    if let failure = SystemCalls.rename(destination, to: aside) {
      throw .unwritable(url, failure.text)
    }
    if let failure = SystemCalls.rename(new, to: destination) {
      _ = SystemCalls.rename(aside, to: destination)
      throw .unwritable(url, failure.text)
    }
    _ = SystemCalls.rename(aside, to: new)
  }
}

/// Removes `path` and everything beneath it, never following a symbolic link out of it.
///
/// Iterative, so that no depth of nested folders can exhaust the stack: a folder is emptied
/// before it is removed, its subfolders first.
package func removeTree(_ path: String) {
  // Each folder is visited twice: once to push what it holds, once (emptied) to remove it.
  var pending: [(path: String, emptied: Bool)] = [(path, false)]
  while case let (current, emptied)? = pending.popLast() {
    if emptied {
      SystemCalls.removeFolder(current)
      continue
    }
    guard case .success(let status) = SystemCalls.linkStatus(ofPath: current) else { continue }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      SystemCalls.removeFile(current)
      continue
    }
    pending.append((current, true))
    for entry in (try? SystemCalls.folderEntries(current).get()) ?? [] {
      pending.append((current + "/" + entry.name, false))
    }
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
    let status: stat
    switch SystemCalls.status(ofPath: root) {
    case .success(let found): status = found
    case .failure(let failure):
      if failure.code == ENOENT || failure.code == ENOTDIR { return nil }
      throw .unreadable(root, failure.text)
    }
    guard status.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(root) }
    var walker = FolderWalker(root: root, limits: limits)
    try walker.walk()
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
    var buffer = data.mutableSpan
    var offset = 0
    put(FolderContents.magic, into: &buffer, at: &offset)
    for entry in found {
      put(header(of: entry), into: &buffer, at: &offset)
      if let target = entry.linkTarget {
        put(target.utf8, into: &buffer, at: &offset)
        continue
      }
      let region = offset..<offset + entry.size
      if let problem = readFile(root + "/" + entry.path, into: &buffer, at: region) {
        throw problem
      }
      offset += entry.size
    }
    return data
  }

  /// Whether the folder at `url` holds what this one does (the same paths, kinds, links and
  /// bytes), compared as `diff -r` would: the two walks first, then each pair of files a piece at
  /// a time, stopping at the first difference. `false` also when either cannot be read: the
  /// caller then reads both in full, which says why.
  package func matches(folderAt url: URL) -> Bool {
    guard let other = try? FolderListing.list(url), other.found == found else { return false }
    let pieceSize = 1 << 18
    var mine = [UInt8](repeating: 0, count: pieceSize)
    var theirs = [UInt8](repeating: 0, count: pieceSize)
    var minePiece = mine.mutableSpan
    var theirPiece = theirs.mutableSpan
    for entry in found where entry.linkTarget == nil {
      guard
        filesMatch(
          root + "/" + entry.path,
          other.root + "/" + entry.path,
          size: entry.size,
          &minePiece,
          &theirPiece
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
  _ firstPiece: inout MutableSpan<UInt8>,
  _ secondPiece: inout MutableSpan<UInt8>
) -> Bool {
  // Never through a link that replaced the file since it was walked.
  guard case .success(let one) = SystemCalls.open(first, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
  else { return false }
  defer { close(one) }
  guard case .success(let two) = SystemCalls.open(second, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
  else { return false }
  defer { close(two) }
  var compared = 0
  while true {
    guard case .success(let count) = readFully(one, &firstPiece, at: 0..<firstPiece.count),
      case .success(count) = readFully(two, &secondPiece, at: 0..<secondPiece.count)
    else { return false }
    if count == 0 { break }
    guard
      firstPiece.span.extracting(0..<count).hasSameBytes(as: secondPiece.span.extracting(0..<count))
    else { return false }
    compared += count
  }
  return compared == size
}

/// Reads until `range` of `buffer` is full or the file ends: the count read.
private func readFully(
  _ descriptor: Int32,
  _ buffer: inout MutableSpan<UInt8>,
  at range: Range<Int>
) -> Result<Int, SystemError> {
  var filled = 0
  while filled < range.count {
    switch SystemCalls.read(
      descriptor,
      into: &buffer,
      range: range.lowerBound + filled..<range.upperBound
    ) {
    case .success(0): return .success(filled)
    case .success(let count): filled += count
    case .failure(let failure): return .failure(failure)
    }
  }
  return .success(filled)
}

/// Reads exactly `range.count` bytes of the file at `path` into `range` of `buffer`; the
/// failure, naming the file, if it cannot, or if the file holds more or fewer bytes than it did
/// when walked.
private func readFile(
  _ path: String,
  into buffer: inout MutableSpan<UInt8>,
  at range: Range<Int>
) -> FolderContentsError? {
  // Never through a link that replaced the file since it was walked.
  let descriptor: Int32
  switch SystemCalls.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW) {
  case .success(let opened): descriptor = opened
  case .failure(let failure): return .unreadable(path, failure.text)
  }
  defer { close(descriptor) }
  let filled: Int
  switch readFully(descriptor, &buffer, at: range) {
  case .success(let count): filled = count
  case .failure(let failure): return .unreadable(path, failure.text)
  }
  guard filled == range.count else { return .unreadable(path, "it shrank while it was read") }
  // One byte more than expected is asked for at the end, to see that the file did not grow.
  var extra: [UInt8] = [0]
  var extraSpan = extra.mutableSpan
  switch SystemCalls.read(descriptor, into: &extraSpan) {
  case .success(0): return nil
  case .success: return .unreadable(path, "it grew while it was read")
  case .failure(let failure): return .unreadable(path, failure.text)
  }
}

/// Whether the file at `path` holds exactly the bytes of `expected`, read `chunk` at a time.
private func fileMatches(
  _ path: String,
  _ expected: Span<UInt8>,
  chunk: inout MutableSpan<UInt8>
) -> Bool {
  guard
    case .success(let descriptor) = SystemCalls.open(
      path,
      flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW
    )
  else { return false }
  defer { close(descriptor) }
  var compared = 0
  while true {
    guard case .success(let count) = SystemCalls.read(descriptor, into: &chunk) else {
      return false
    }
    if count == 0 { break }
    guard compared + count <= expected.count,
      chunk.span.extracting(0..<count).hasSameBytes(
        as: expected.extracting(compared..<compared + count)
      )
    else { return false }
    compared += count
  }
  return compared == expected.count
}

/// What the encoding writes before an entry's data: its kind, its path's length, its path and
/// its data's length, integers least significant byte first.
private func header(of entry: FolderListing.Found) -> [UInt8] {
  var bytes = [entry.kind.rawValue]
  bytes.reserveCapacity(13 + entry.path.utf8.count)
  let pathCount = UInt32(entry.path.utf8.count)
  for shift in stride(from: 0, to: 32, by: 8) {
    bytes.append(UInt8(truncatingIfNeeded: pathCount >> shift))
  }
  bytes.append(contentsOf: entry.path.utf8)
  let size = UInt64(entry.size)
  for shift in stride(from: 0, to: 64, by: 8) {
    bytes.append(UInt8(truncatingIfNeeded: size >> shift))
  }
  return bytes
}

/// Writes `bytes` into `buffer` from `offset`, and moves `offset` past them.
private func put(
  _ bytes: some Sequence<UInt8>,
  into buffer: inout MutableSpan<UInt8>,
  at offset: inout Int
) {
  for byte in bytes {
    buffer[offset] = byte
    offset += 1
  }
}

/// Whether `expected` holds `bytes` from `offset`; moves `offset` past those that matched.
private func matches(_ bytes: some Sequence<UInt8>, _ expected: Span<UInt8>, at offset: inout Int)
  -> Bool
{
  for byte in bytes {
    guard offset < expected.count, expected[offset] == byte else { return false }
    offset += 1
  }
  return true
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

  /// Walks the whole folder, one folder at a time from a list of those still to read, so that
  /// no depth of nesting can exhaust the stack.
  mutating func walk() throws(FolderContentsError) {
    var folders = [""]
    while let relative = folders.popLast() {
      let folder = relative.isEmpty ? root : root + "/" + relative
      let entries: [(name: String, isUTF8: Bool)]
      switch SystemCalls.folderEntries(folder) {
      case .success(let listed): entries = listed
      case .failure(let failure): throw .unreadable(folder, failure.text)
      }
      var subfolders: [String] = []
      for (name, isUTF8) in entries {
        let path = relative.isEmpty ? name : relative + "/" + name
        let full = root + "/" + path
        // A name that is not UTF-8 has no `String` that names the file: refused for what it is,
        // not reported as missing under its repaired name.
        guard isUTF8 else {
          throw .invalidPath(full, "its name is not UTF-8 (each invalid byte is shown as \u{FFFD})")
        }
        let status: stat
        switch SystemCalls.linkStatus(ofPath: full) {
        case .success(let found): status = found
        case .failure(let failure): throw .unreadable(full, failure.text)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
          subfolders.append(path)
        case S_IFLNK:
          // Read as bytes: Foundation would repair a target that is not UTF-8 into another one.
          let bytes: [UInt8]
          switch SystemCalls.linkTarget(full) {
          case .success(let read): bytes = read
          case .failure(let failure): throw .unreadable(full, failure.text)
          }
          guard let target = String(validating: bytes, as: UTF8.self) else {
            throw .invalidPath(full, "the link's target is not UTF-8")
          }
          try add(
            Found(path: path, kind: .symbolicLink, size: target.utf8.count, linkTarget: target)
          )
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
      // The first subfolder is read next, as a recursive walk would.
      folders.append(contentsOf: subfolders.reversed())
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
