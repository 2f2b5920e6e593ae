import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

/// A folder recording (`.directory`) killed at any moment leaves the previous folder or the new
/// one, whole, never a mix of their files; what the kill left is removed by the next recording.
/// The recordings run in a child process (this test binary, running `childRecordsFolders`),
/// killed with SIGKILL.
@Suite(.serialized) struct KilledFolderRecordingTests {
  static let childKey = "SNAPSHOT_TESTING_KILLED_FOLDER_CHILD"

  /// 200 files of 16 KiB, named and filled after `letter`: two versions share no file.
  static func files(_ letter: Character) -> [String: Data] {
    var files: [String: Data] = [:]
    for index in 0..<200 {
      files["part-\(index % 10)/\(letter)-\(index).txt"] =
        Data((String(repeating: letter, count: 16_383) + "\n").utf8)
    }
    return files
  }

  /// In the child: records `A` and `B` in turn until killed (`loop`), or `C` once (`once`).
  @Test(.enabled(if: ProcessInfo.processInfo.environment[childKey] != nil))
  func childRecordsFolders() throws {
    let environment = ProcessInfo.processInfo.environment
    let folder = try #require(environment["KILLED_FOLDER_REFERENCES"])
    let write = { (files: [String: Data]) in
      _ = verifySnapshot(
        of: files,
        as: .directory,
        named: "site",
        record: .all,
        snapshotDirectory: folder,
        testName: "killed()"
      )
    }
    guard environment[Self.childKey] == "loop" else { return write(Self.files("C")) }
    let (a, b) = (Self.files("A"), Self.files("B"))
    try Data().write(to: URL(fileURLWithPath: folder + "/../started"))
    for round in 0..<1000 { write(round % 2 == 0 ? a : b) }
  }

  static func child(_ mode: String, folder: URL) throws -> Process {
    try startChildTest(
      "childRecordsFolders",
      environment: [
        childKey: mode, "KILLED_FOLDER_REFERENCES": folder.path,
        "SNAPSHOT_ARTIFACTS": folder.deletingLastPathComponent()
          .appendingPathComponent("artifacts").path,
      ])
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
