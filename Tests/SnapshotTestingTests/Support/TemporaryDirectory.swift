import Foundation

/// A fresh folder under the system's temporary folder, removed when the test's closure returns.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) rethrows -> R {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("SnapshotTestingTests-\(UUID().uuidString)", isDirectory: true)
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try body(url)
}

func contents(of url: URL) -> String? {
  (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
}

func fileNames(in url: URL) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
}
