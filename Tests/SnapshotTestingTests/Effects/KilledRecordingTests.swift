import Foundation
import RunRecord
import TestSupport
import Testing

@testable import SnapshotTesting

/// A recording killed at any moment leaves the previous reference or the new one, never a part of
/// one, and nothing it left behind outlives the next complete run. The recordings run in a child
/// process (`RecordingChild`, a program of its own, so no entry point of the test bundle is
/// skipped in a normal run), killed with SIGKILL.
@Suite(.serialized) struct KilledRecordingTests {
  static let size = 8 << 20

  static func text(_ letter: Character) -> String {
    String(repeating: letter, count: size - 1) + "\n"
  }

  /// `RecordingChild` (Tests/RecordingChild), recording `A` and `B` in turn until killed
  /// (`loop`), or `C` once (`once`).
  static func child(_ mode: String, folder: URL, named: Bool) throws -> Process {
    try startRecordingChild(mode, folder: folder, named ? ["named"] : [])
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
