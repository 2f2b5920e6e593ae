import Foundation
import RunRecord
import TestSupport
import Testing

@testable import SnapshotTesting

/// A folder recording (`.directory`) killed at any moment leaves the previous folder or the new
/// one, whole, never a mix of their files; what the kill left is removed by the next recording.
/// The recordings run in a child process (`RecordingChild … folders`), killed with SIGKILL.
@Suite(.serialized) struct KilledFolderRecordingTests {
  /// 200 files of 16 KiB, named and filled after `letter`: two versions share no file.
  static func files(_ letter: Character) -> [String: Data] {
    var files: [String: Data] = [:]
    for index in 0..<200 {
      files["part-\(index % 10)/\(letter)-\(index).txt"] =
        Data((String(repeating: letter, count: 16_383) + "\n").utf8)
    }
    return files
  }

  /// `RecordingChild` (Tests/RecordingChild) with `folders`: records `A` and `B` in turn until
  /// killed (`loop`), or `C` once (`once`).
  static func child(_ mode: String, folder: URL) throws -> Process {
    try startRecordingChild(mode, folder: folder, ["folders"])
  }

  @Test func aKilledFolderRecordingLeavesAWholeFolderAndNoTrace() throws {
    try withTemporaryDirectory { root in
      let folder = root.appendingPathComponent("refs", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let reference = folder.appendingPathComponent("killed.site")
      let started = root.appendingPathComponent("started")
      let whole = ["A", "B", "C"].map { DirectorySnapshot(files: Self.files(Character($0))) }
      for delay in [0, 3, 7, 13, 29, 61] {
        try? FileManager.default.removeItem(at: started)
        let recording = try Self.child("loop", folder: folder)
        kill(recording, whenStarted: started, afterMilliseconds: delay)

        if let contents = try FolderContents.read(reference) {
          #expect(
            whole.contains(DirectorySnapshot(contents)),
            "killed after \(delay) ms: \(contents.entries.count) files"
          )
        }

        let next = try Self.child("once", folder: folder)
        next.waitUntilExit()
        #expect(next.terminationStatus == 0)
        #expect(fileNames(in: folder) == [reference.lastPathComponent], "after \(delay) ms")
        #expect(try FolderContents.read(reference).map(DirectorySnapshot.init) == whole[2])
      }
    }
  }
}
