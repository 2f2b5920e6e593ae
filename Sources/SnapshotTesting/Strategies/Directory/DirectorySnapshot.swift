import Foundation
import RunRecord

/// A folder's files by their paths relative to it: the format of the `.directory` strategies.
///
/// ```swift
/// let site = DirectorySnapshot(files: [
///   "index.html": Data("<h1>Hello</h1>\n".utf8),
///   "css/site.css": Data("h1 { color: red }\n".utf8),
/// ])
/// ```
///
/// Paths use `/`, are relative and have no empty, `.` or `..` component; folders are implied by
/// the paths of the files they hold (an empty folder is not part of a snapshot, as Git keeps
/// none).
public struct DirectorySnapshot: Equatable, Sendable {
  /// What one path of the folder holds.
  public enum Entry: Equatable, Sendable {
    /// A regular file's bytes, and whether it is executable.
    case file(Data, isExecutable: Bool = false)
    /// A symbolic link, recorded as its target's text and never followed. A target must stay
    /// inside the folder.
    case symbolicLink(to: String)
  }

  /// The entries, by relative path (`docs/index.md`).
  public var entries: [String: Entry] {
    get { source?.load().entries ?? stored }
    set {
      stored = newValue
      source = nil
      encoded = nil
    }
  }

  private var stored: [String: Entry]
  /// A folder on disk whose files are read only when they are needed: a matching assertion
  /// compares it with the reference folder without holding either in memory.
  private(set) var source: FolderSource?
  /// The bytes these entries encode to, when they were decoded from them.
  private var encoded: Data?

  /// Creates a snapshot from its entries.
  public init(entries: [String: Entry]) {
    self.stored = entries
  }

  /// Creates a snapshot of plain files (none executable), by relative path.
  public init(files: [String: Data]) {
    self.init(entries: files.mapValues { .file($0) })
  }

  /// Two snapshots are equal when their entries are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.entries == rhs.entries
  }

  /// The snapshot of a folder on disk, walked (so its problems are known now) but not read.
  init(listing: FolderListing) {
    self.stored = [:]
    self.source = FolderSource(listing)
  }

  /// The snapshot of the bytes ``encodedContents()`` gives; `nil` for other bytes.
  init?(encoded: Data) {
    guard let contents = FolderContents(decoding: encoded) else { return nil }
    self.init(contents)
    self.encoded = encoded
  }

  init(_ contents: FolderContents) {
    var entries: [String: Entry] = [:]
    entries.reserveCapacity(contents.entries.count)
    for entry in contents.entries {
      switch entry.kind {
      case .file: entries[entry.path] = .file(entry.data)
      case .executable: entries[entry.path] = .file(entry.data, isExecutable: true)
      case .symbolicLink:
        entries[entry.path] = .symbolicLink(to: String(decoding: entry.data, as: UTF8.self))
      }
    }
    self.stored = entries
  }

  /// The bytes the engine compares and writes.
  func encodedContents() throws(FolderContentsError) -> Data {
    if let source { return try source.load().encoded.get() }
    if let encoded { return encoded }
    return try folderContents().encoded()
  }

  /// Whether the folder at `url` holds exactly this snapshot, found by reading it (and this
  /// snapshot's own folder, if it has one) a piece at a time.
  func matches(folderAt url: URL) -> Bool {
    if let source { return source.listing.matches(folderAt: url) }
    guard let encoded = try? encodedContents() else { return false }
    return FolderContents.folder(at: url, matches: encoded)
  }

  /// The entries checked and sorted, or the reason they cannot be a folder (a path that is
  /// absolute or climbs out, a file that also holds other paths, a link that leaves the folder).
  func folderContents() throws(FolderContentsError) -> FolderContents {
    try FolderContents(
      entries: entries.map { path, entry in
        switch entry {
        case .file(let data, let isExecutable):
          FolderContents.Entry(path: path, kind: isExecutable ? .executable : .file, data: data)
        case .symbolicLink(let target):
          FolderContents.Entry(path: path, kind: .symbolicLink, data: Data(target.utf8))
        }
      }
    )
  }
}

/// A walked folder whose files are read once, the first time they are asked for (a mismatch
/// to describe, or a snapshot to write).
final class FolderSource: @unchecked Sendable {
  typealias Loaded = (
    entries: [String: DirectorySnapshot.Entry], encoded: Result<Data, FolderContentsError>
  )

  let listing: FolderListing
  private let lock = NSLock()
  private var loaded: Loaded?

  init(_ listing: FolderListing) {
    self.listing = listing
  }

  /// The folder's entries and bytes; when a file could not be read since the walk, no entries
  /// and the error naming it.
  func load() -> Loaded {
    lock.lock()
    defer { lock.unlock() }
    if let loaded { return loaded }
    let encoded = Result { () throws(FolderContentsError) in try listing.readEncoded() }
    var entries: [String: DirectorySnapshot.Entry] = [:]
    if case .success(let data) = encoded, let snapshot = DirectorySnapshot(encoded: data) {
      entries = snapshot.entries
    }
    loaded = (entries, encoded)
    return (entries, encoded)
  }
}
