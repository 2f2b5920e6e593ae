import Foundation
import XCTest

/// What this process knows of XCTest's test cases: whether one is running, so that a failure
/// reported off the test's thread can tell whether `XCTFail` would reach a test or be dropped, and
/// the end of each, when the XCTest snapshot counter starts again at 1.
///
/// XCTest has no public way to ask for the running test case, so one observer watches them all.
/// The load-time hook (`CProcessStart`) installs it before the first test starts; where that hook
/// does not run (or the process loads off the main thread), the first assertion installs it, and
/// nothing is known until it has seen a test case finish.
final class XCTestActivity: NSObject, XCTestObservation, @unchecked Sendable {
  /// Whether an XCTest test case is running now, or `nil` if the observer was installed too late
  /// to know.
  static var isTestCaseRunning: Bool? {
    shared.lock.withLock { shared.knowsRunningCases ? shared.runningCases > 0 : nil }
  }

  /// Installs the observer if it is not yet installed. `fromTheStart` says that no XCTest test case
  /// can have started before: the call comes from the load-time hook.
  static func observe(fromTheStart: Bool = false) {
    let isFirst = shared.lock.withLock {
      guard !shared.isInstalled else { return false }
      shared.isInstalled = true
      return true
    }
    guard isFirst else { return }
    // The observation centre belongs to the main actor. Off the main thread the observer is
    // installed a moment later, when a test case may already run: it knows nothing until one
    // finishes.
    if Thread.isMainThread {
      MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(shared) }
      shared.lock.withLock { shared.knowsRunningCases = fromTheStart }
    } else {
      DispatchQueue.main.async {
        MainActor.assumeIsolated { XCTestObservationCenter.shared.addTestObserver(shared) }
      }
    }
  }

  private static let shared = XCTestActivity()
  private let lock = NSLock()
  private var isInstalled = false
  private var knowsRunningCases = false
  private var runningCases = 0

  func testCaseWillStart(_ testCase: XCTestCase) {
    lock.withLock { runningCases += 1 }
  }

  func testCaseDidFinish(_ testCase: XCTestCase) {
    lock.withLock {
      runningCases = max(0, runningCases - 1)
      // An observer installed during a test case sees that one finish: from then on it knows.
      knowsRunningCases = true
    }
    SnapshotCounter.resetXCTestCounter()
  }
}
