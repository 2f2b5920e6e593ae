import Foundation
import SnapshotTesting
import Testing
import XCTest

// Each test does its part only when FIXTURE_CASE names it, and passes otherwise: a run fails only
// through the case under test. Every reference under __Snapshots__ holds "recorded".

let fixtureCase = ProcessInfo.processInfo.environment["FIXTURE_CASE"] ?? ""

/// A snapshot that does not match its reference, `offTask.<name>.txt`.
func assertChanged(_ name: String) {
  assertSnapshot(of: "changed", as: .lines, named: name, record: .never, testName: "offTask")
}

/// Runs `body` on a global queue and waits for it without blocking a task's thread.
func onQueue(_ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
      body()
      continuation.resume()
    }
  }
}

@Test func dispatchQueue() async {
  guard fixtureCase == "dispatchQueue" else { return }
  await onQueue { assertChanged("dispatchQueue") }
}

@Test func thread() {
  guard fixtureCase == "thread" else { return }
  let finished = DispatchSemaphore(value: 0)
  Thread {
    assertChanged("thread")
    finished.signal()
  }.start()
  finished.wait()
}

@Test func detachedTask() async {
  guard fixtureCase == "detachedTask" else { return }
  await Task.detached { assertChanged("detachedTask") }.value
}

/// Signalled once the assertion left behind by `afterItsTestEnded` has run.
let lateAssertionRan = DispatchSemaphore(value: 0)

@Test func afterItsTestEnded() {
  guard fixtureCase == "afterItsTestEnded" else { return }
  DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
    assertChanged("afterItsTestEnded")
    lateAssertionRan.signal()
  }
}

/// Keeps the run going (tests run in parallel) until the late assertion has run.
@Test func waitsForTheLateAssertion() async {
  guard fixtureCase == "afterItsTestEnded" else { return }
  await onQueue { _ = lateAssertionRan.wait(timeout: .now() + 30) }
}

@Test func afterTheRun() {
  guard fixtureCase == "afterTheRun" else { return }
  atexit { assertChanged("afterTheRun") }
}

@Test func expectSnapshotOffTask() async {
  guard fixtureCase == "expectSnapshotOffTask" else { return }
  await onQueue {
    _ = expectSnapshot(
      of: "changed",
      as: .lines,
      named: "expectSnapshotOffTask",
      record: .never,
      testName: "offTask"
    )
  }
}

@Test func inItsTask() {
  guard fixtureCase == "inItsTask" else { return }
  assertChanged("inItsTask")
}

@Test func matchingOffTask() async {
  guard fixtureCase == "matchingOffTask" else { return }
  await onQueue {
    assertSnapshot(
      of: "recorded",
      as: .lines,
      named: "matching",
      record: .never,
      testName: "offTask"
    )
  }
}

final class OffTaskXCTests: XCTestCase {
  func testOffTheMainThread() {
    guard fixtureCase == "xcTestOffTheMainThread" else { return }
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      assertChanged("xcTestOffTheMainThread")
      finished.signal()
    }
    finished.wait()
  }

  func testAfterTheRun() {
    guard fixtureCase == "xcTestAfterTheRun" else { return }
    atexit { assertChanged("xcTestAfterTheRun") }
  }
}
