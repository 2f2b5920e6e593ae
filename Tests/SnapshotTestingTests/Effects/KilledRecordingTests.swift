import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

/// A recording killed at any moment leaves the previous reference or the new one, never a part of
/// one, and nothing it left behind outlives the next complete run. The recordings run in a child
/// process (this test binary, running `childRecords`), killed with SIGKILL.
@Suite(.serialized) struct KilledRecordingTests {
  static let childKey = "SNAPSHOT_TESTING_KILLED_RECORDING_CHILD"
  static let size = 8 << 20

  static func text(_ letter: Character) -> String {
    String(repeating: letter, count: size - 1) + "\n"
  }

  /// In the child: records `A` and `B` in turn until killed (`loop`), or `C` once (`once`).
  @Test(.enabled(if: ProcessInfo.processInfo.environment[childKey] != nil))
  func childRecords() throws {
    let environment = ProcessInfo.processInfo.environment
    let folder = try #require(environment["KILLED_RECORDING_FOLDER"])
    let write = { (text: String) in
      _ = verifySnapshot(
        of: text,
        as: .lines,
        named: "large",
        record: .all,
        snapshotDirectory: folder,
        testName: "killed()"
      )
    }
    try TestHooks.with(UnnamedFile.Disabled.self, environment["KILLED_RECORDING_NAMED"] != nil) {
      guard environment[Self.childKey] == "loop" else { return write(Self.text("C")) }
      let (a, b) = (Self.text("A"), Self.text("B"))
      try Data().write(to: URL(fileURLWithPath: folder + "/../started"))
      for round in 0..<1000 { write(round % 2 == 0 ? a : b) }
    }
  }

  static func child(_ mode: String, folder: URL, named: Bool) throws -> Process {
    var environment = [
      childKey: mode, "KILLED_RECORDING_FOLDER": folder.path,
      "SNAPSHOT_ARTIFACTS": folder.deletingLastPathComponent()
        .appendingPathComponent("artifacts").path,
    ]
    if named { environment["KILLED_RECORDING_NAMED"] = "1" }
    return try startChildTest("childRecords", environment: environment)
  }

  @Test(arguments: [false, true])
  func aKilledRecordingLeavesAWholeReferenceAndNoTrace(namedTemporaryFiles: Bool) throws {
    try withTemporaryDirectory { root in
      let folder = root.appendingPathComponent("refs", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let reference = folder.appendingPathComponent("killed.large.txt")
      let started = root.appendingPathComponent("started")
      // The previous reference (C, after the first round) or a new one, whole.
      let whole = [Self.text("A"), Self.text("B"), Self.text("C")].map { Data($0.utf8) }
      var leftovers = 0
      for delay in [0, 2, 5, 11, 23, 47] {
        try? FileManager.default.removeItem(at: started)
        let recording = try Self.child("loop", folder: folder, named: namedTemporaryFiles)
        kill(recording, whenStarted: started, afterMilliseconds: delay)

        if let data = try? Data(contentsOf: reference) {
          #expect(whole.contains(data), "killed after \(delay) ms: \(data.count) bytes")
        }
        leftovers += fileNames(in: folder).filter { $0 != reference.lastPathComponent }.count

        let next = try Self.child("once", folder: folder, named: namedTemporaryFiles)
        next.waitUntilExit()
        #expect(next.terminationStatus == 0)
        #expect(fileNames(in: folder) == [reference.lastPathComponent], "after \(delay) ms")
        #expect(contents(of: reference) == Self.text("C"))
      }
      if !namedTemporaryFiles {
        // Unnamed files have a name only between linking and renaming: a kill rarely finds one.
        #expect(leftovers <= 1, "\(leftovers) temporary files left by kills")
      }
    }
  }
}
