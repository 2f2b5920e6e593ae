import Foundation

/// Runs `body` with a new empty folder, removed afterwards.
func withTemporaryFolder<R>(_ body: (URL) throws -> R) throws -> R {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("RunRecordTests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer {
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    try? FileManager.default.removeItem(at: folder)
  }
  return try body(folder)
}

func names(in folder: URL) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

func permissions(of url: URL) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
  return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
