import Foundation
import RunRecord
import Testing

@Suite struct ReferenceUsageLogLoadingTests {
  /// Found by fuzzing (Fuzz/FuzzUsageLog): lines were split at characters, and "\r\n" is one
  /// character, so a path ending in a carriage return swallowed the next line and `prune` would
  /// have taken both references for unused.
  @Test func aPathEndingInACarriageReturnKeepsTheNextLine() throws {
    try withTemporaryFolder { folder in
      let paths = ["/p/__Snapshots__/a.txt\r", "/p/__Snapshots__/b.txt", "/p/__Snapshots__/\r"]
      // As ReferenceUsageLog writes them: each path, then a line feed.
      let log = paths.map { $0 + "\n" }.joined()
      try Data(log.utf8).write(to: folder.appendingPathComponent("references-1-test.txt"))
      #expect(try ReferenceUsageLog.load(folder: folder).paths == Set(paths))
    }
  }
}
