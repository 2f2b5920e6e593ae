import Foundation
import RunRecord

/// Called by the load-time hook in `CProcessStart` (a dependency of this target, linked with it
/// and never imported) when `SNAPSHOT_TESTING_USED_REFERENCES` is set:
/// describes this test process in the usage log before any test runs (see `ReferenceUsageLog`).
@_cdecl("snapshot_testing_process_started")
package func snapshotTestingProcessStarted(
  _ argc: Int32,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) {
  let arguments = (0..<Int(max(argc, 0))).compactMap { index in
    argv?[index].map { String(cString: $0) }
  }
  ReferenceUsageLog.start(arguments: arguments, environment: .current)
}
