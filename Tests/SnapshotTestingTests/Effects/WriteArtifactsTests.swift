import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

@Suite struct WriteArtifactsTests {
  @Test func aFailureWhoseArtifactsCannotBeSavedIsStillReportedWithANote() throws {
    try withTemporaryDirectory { root in
      // A file where the artifacts folder should be: nothing can be written beneath it.
      let blocked = root.appendingPathComponent("artifacts-is-a-file")
      try Data().write(to: blocked)
      var sandbox = SnapshotSandbox(root: root)
      sandbox.environment[.artifacts] = blocked.path
      try sandbox.write("old\n", to: "sandbox.1.txt")

      let message = try #require(sandbox.verify("new\n", as: .lines, record: .never))

      #expect(message.hasPrefix("Snapshot does not match reference.\n"))
      #expect(message.contains("−old\n+new"))
      #expect(
        message.contains(
          #"The failure's artifact could not be saved. Could not write "\#(sandbox.artifactsFolder.path)": Not a directory."#
        )
      )
      #expect(
        message.hasSuffix(
          #"could not be recorded for review. Could not write "\#(blocked.path)/.snapshot-testing/failures": Not a directory."#
        )
      )
    }
  }
}
