import Foundation
import RunRecord

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A short text that changes whenever the pending failures of some artifacts folders change (a
/// record written, replaced or removed, a folder deleted), for the served page to poll.
enum ArtifactsStamp {
  /// The 64-bit FNV-1a hash of each folder's existence and of each record's name, size and
  /// modification time, in hexadecimal.
  ///
  /// - Complexity: O(*n*) in the number of records; no record is read.
  static func of(_ roots: [URL]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ text: String) {
      for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }
    for root in roots {
      mix(root.path)
      let folder = ArtifactsFolder(root: root).failureRecordsFolder
      guard FileManager.default.fileExists(atPath: root.path) else {
        mix("\u{0}missing")
        continue
      }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for name in names.sorted() {
        let attributes = try? FileManager.default.attributesOfItem(
          atPath: folder.appendingPathComponent(name).path
        )
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        mix("\u{0}\(name)\u{0}\(size)\u{0}\(modified)")
      }
    }
    return String(hash, radix: 16)
  }
}

/// The artifacts folders and their records folders as one `stat` each sees them: enough to tell,
/// without listing a folder, that no record was written or removed. A record is written by
/// renaming a finished file into its folder (`AtomicFile`) and removed by unlinking it, and both
/// change the folder's modification time.
struct RecordsFoldersSignature: Equatable {
  struct Folder: Equatable {
    var device: UInt64
    var inode: UInt64
    var modified: Int
    var changed: Int
  }

  /// For each root: the root's own folder and its records folder, `nil` where missing.
  var folders: [Folder?]

  init(_ roots: [URL]) {
    folders = roots.flatMap { root in
      [root.path, ArtifactsFolder(root: root).failureRecordsFolder.path].map(Self.folder)
    }
  }

  private static func folder(_ path: String) -> Folder? {
    guard case .success(let info) = SystemCalls.status(ofPath: path) else { return nil }
    return Folder(
      device: UInt64(info.st_dev),
      inode: UInt64(info.st_ino),
      modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec,
      changed: info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec
    )
  }

  /// The latest change of any folder, in nanoseconds since 1970.
  var latestChange: Int {
    folders.compactMap { $0.map { max($0.modified, $0.changed) } }.max() ?? 0
  }
}
