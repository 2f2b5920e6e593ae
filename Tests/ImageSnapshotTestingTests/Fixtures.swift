import Foundation

/// Files under `__Fixtures__/`, found from this source file's location (they are not resources).
enum Fixtures {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("__Fixtures__")

  static func data(_ path: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(path))
  }
}
