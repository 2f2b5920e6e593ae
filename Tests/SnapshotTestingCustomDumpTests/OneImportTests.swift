// This file imports the product alone, as its article's example does: SnapshotTestingCustomDump
// re-exports SnapshotTesting, so `assertSnapshot`, `withSnapshotTesting` and `Snapshotting` need
// no second import. Without the re-export this file does not compile (top-level names are
// looked up through the file's own imports).
import Foundation
import SnapshotTestingCustomDump
import Testing

@Suite struct OneImportTests {
  @Test func assertSnapshotNeedsNoSecondImport() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("one-import-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let reference = folder.appendingPathComponent("oneImport.role.txt")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("Role.admin".utf8).write(to: reference)
    let failure = withSnapshotTesting(record: .never) {
      verifySnapshot(
        of: Role.admin, as: .customDump, named: "role", snapshotDirectory: folder.path,
        testName: "oneImport")
    }
    #expect(failure == nil)
  }
}
