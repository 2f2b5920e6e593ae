import Foundation
import RunRecord
import Testing

/// Reports a failure that no test owns (``IssueOwner/noTest``) so that it never passes silently.
///
/// - During a Swift Testing run, `Issue.record` with no current test reports the issue as the
///   run's own ("Test «unknown» recorded an issue") and fails the run; outside a run (the XCTest
///   process, or once the run has ended) Swift Testing drops it, as XCTest drops `XCTFail` when no
///   test case runs. Both are as of Swift 6.3.1 on Linux.
/// - So the failure is also written to standard error at once, in the compiler's `file:line:
///   error:` form, and remembered: the process then exits with a failing status (the last exit
///   handler, installed by `CProcessStart` as the process loads, ends it with `EXIT_FAILURE`).
func reportUnownedFailure(_ message: String, at sourceLocation: SourceLocation) {
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  UnownedFailures.remember()
  FileHandle.standardError.write(
    Data(
      unownedFailureReport(message, filePath: sourceLocation.filePath, line: sourceLocation.line)
        .utf8
    )
  )
}

/// What standard error shows for a failure no test owns: where, why no test failed, what
/// happens, what to do, then the assertion's own message.
func unownedFailureReport(_ message: String, filePath: String, line: Int) -> String {
  """
  \(filePath):\(line): error: This snapshot assertion failed where no test could record it: \
  off its test's task (in a DispatchQueue block, a Thread or a Task.detached) or after its test \
  ended. The test process will exit with a failing status. Await the work in the test and assert \
  on its task for the failure to be the test's.
  \(message)

  """
}

/// The line the last exit handler writes when failures no test owned make the process fail, or
/// `nil` when there were none.
func unownedFailuresSummary(count: Int) -> String? {
  guard count > 0 else { return nil }
  let failures = count == 1 ? "1 snapshot assertion" : "\(count) snapshot assertions"
  return """
    error: \(failures) failed where no test could record \(count == 1 ? "it" : "them") (see \
    above), so the test process exits with a failing status.

    """
}

/// How many failures no test owned, in this process.
enum UnownedFailures {
  private static let count = Locked(0)

  static func remember() {
    count.withLock { $0 += 1 }
  }

  static var rememberedCount: Int {
    count.withLock { $0 }
  }
}
