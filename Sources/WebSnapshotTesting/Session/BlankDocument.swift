import Foundation

/// The empty HTML file that every page loads before its snapshot, alone in a folder of the
/// browser's temporary folder: HTML text is written into it, so that the page has a `file:`
/// origin (it may load files through a base URL) and relative URLs without a base resolve to
/// nothing.
enum BlankDocument {
  /// Writes the document into `browserFolder` (removed with the browser) and returns its URL.
  static func write(into browserFolder: URL) throws(WebSnapshotError) -> URL {
    let folder = browserFolder.appendingPathComponent("page")
    let file = folder.appendingPathComponent("blank.html")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data().write(to: file)
    } catch {
      throw .browserDidNotStart(
        path: browserFolder.path,
        reason: "cannot write \(file.path): \(error)"
      )
    }
    return file
  }
}
