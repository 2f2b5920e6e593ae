import Foundation
import Testing

@_spi(Internals) @testable import SnapshotTesting

/// Each test binds a private `GlobalConfiguration`, so setting the globals here cannot leak into
/// tests running in parallel.
@Suite struct DeprecatedGlobalsTests {
  @available(*, deprecated)
  @Test func recordEqualsTrueRecordsEverything() {
    GlobalConfiguration.withPrivateInstance {
      #expect(!record)
      record = true
      #expect(isRecording)
      #expect(_record == .all)
      record = false
      #expect(_record == .missing)
    }
  }

  @available(*, deprecated)
  @Test func globalRecordModeIsUsedByAssertions() {
    GlobalConfiguration.withPrivateInstance {
      isRecording = true
      withTemporaryDirectory { folder in
        let message = verifySnapshot(
          of: "x",
          as: .lines,
          snapshotDirectory: folder.path,
          testName: "global()"
        )
        #expect(message?.hasPrefix(#"Record mode is "all""#) == true)
      }
    }
  }

  @available(*, deprecated)
  @Test func scopeBeatsTheGlobal() {
    GlobalConfiguration.withPrivateInstance {
      isRecording = true
      withSnapshotTesting(record: .never) {
        #expect(_record == .never)
      }
    }
  }

  @available(*, deprecated)
  @Test func globalDiffToolIsUsed() {
    GlobalConfiguration.withPrivateInstance {
      diffTool = "meld"
      #expect(_diffTool(currentFilePath: "a", failedFilePath: "b") == "meld a b")
      withSnapshotTesting(diffTool: "kdiff3") {
        #expect(_diffTool(currentFilePath: "a", failedFilePath: "b") == "kdiff3 a b")
      }
    }
  }
}
