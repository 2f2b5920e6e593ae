import Foundation

/// Writes a file so that readers see the old bytes or the new ones, never a part: the data goes to
/// a temporary file in the same folder, which is then renamed over the destination.
enum AtomicFile {
  static func write(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp"
    )
    try data.write(to: temporary)
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      _ = unlink(temporary.path)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
    }
  }
}
