import Foundation
import Testing

/// A suite trait that removes `folder` once every test of the suite has run: for suites whose
/// parallel cases share one folder, which no single case can remove.
struct RemovingFolder: SuiteTrait, TestScoping {
  let folder: URL

  var isRecursive: Bool { false }

  func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try await function()
  }
}

extension Trait where Self == RemovingFolder {
  /// Removes `folder` after the suite's last test.
  static func removing(_ folder: URL) -> Self { RemovingFolder(folder: folder) }
}
