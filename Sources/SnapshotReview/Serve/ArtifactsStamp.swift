import Foundation
import RunRecord

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
