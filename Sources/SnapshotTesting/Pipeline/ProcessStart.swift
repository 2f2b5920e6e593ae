import Foundation
import RunRecord

/// Called by the load-time hook in `CProcessStart` (a dependency of this target, linked with it
/// and never imported) when `SNAPSHOT_TESTING_USED_REFERENCES` is set:
/// describes this test process in the usage log before any test runs (see `ReferenceUsageLog`).
/// The Swift runtime has the program's arguments by then: it takes them as it loads, before
/// this module's hooks run.
@_cdecl("snapshot_testing_process_started")
package func snapshotTestingProcessStarted() {
  ReferenceUsageLog.start(arguments: CommandLine.arguments, environment: .current)
}

/// Called by the load-time hook in `CProcessStart` in every process that links this module, before
/// any test runs: XCTest is watched from its first test case on (see ``XCTestActivity``).
@_cdecl("snapshot_testing_process_loaded")
package func snapshotTestingProcessLoaded() {
  XCTestActivity.observe(fromTheStart: true)
}

/// Called by the last exit handler, which `CProcessStart` installs as the process loads: writes
/// why the process fails and returns `true` if a snapshot assertion failed where no test could
/// record it (see ``reportUnownedFailure(_:at:)``); the handler then ends the process with
/// `EXIT_FAILURE`.
@_cdecl("snapshot_testing_process_exiting")
package func snapshotTestingProcessExiting() -> Bool {
  guard let summary = unownedFailuresSummary(count: UnownedFailures.rememberedCount) else {
    return false
  }
  FileHandle.standardError.write(Data(summary.utf8))
  return true
}
