import Foundation
import Testing
import XCTest

/// Numbers the unnamed snapshots of one test execution: 1, 2, 3… per reference folder and test
/// name.
final class SnapshotCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  func next(for key: String) -> Int {
    lock.withLock {
      let next = counts[key, default: 0] + 1
      counts[key] = next
      return next
    }
  }

  func reset() {
    lock.withLock { counts.removeAll() }
  }

  /// The counter of the test execution running on this task.
  ///
  /// - Inside a `.snapshots` trait, the counter it created for this test case (`scoped`, kept in
  ///   ``SnapshotScope``); child tasks inherit it.
  /// - Otherwise under Swift Testing, one counter per test and test case (parameterized
  ///   arguments), shared by the test's child tasks (`async let`, `Task {}`, task groups), which
  ///   inherit both, as upstream shares its one counter: parallel tests and parameterized cases
  ///   each start at 1, and a child's snapshot after the parent's first is its second. Test cases
  ///   are told apart by Swift Testing's description of them, which names their arguments and (in
  ///   Swift 6.3, at least) numbers cases whose arguments are equal; with a Swift Testing without
  ///   that number, parallel cases whose arguments describe alike would share a counter. A
  ///   repetition of a test case starts at 1 only in the trait: without it, it continues the
  ///   counter of the earlier run (`test.4`, …).
  /// - Under XCTest, which runs one test at a time, a process-wide counter reset after each test.
  static func current(scoped: SnapshotCounter? = SnapshotScope.current.counter) -> SnapshotCounter {
    if let scoped { return scoped }
    if let test = Test.current {
      let testCase = Test.Case.current.map { String(describing: $0) } ?? ""
      return perExecution.counter(for: "\(test.id)|\(testCase)")
    }
    XCTestActivity.observe()
    return xcTest
  }

  private static let xcTest = SnapshotCounter()
  private static let perExecution = CounterRegistry()
}

/// Counters for Swift Testing executions that run without the `.snapshots` trait.
private final class CounterRegistry: @unchecked Sendable {
  private let lock = NSLock()
  private var counters: [String: SnapshotCounter] = [:]

  func counter(for key: String) -> SnapshotCounter {
    lock.withLock {
      if let existing = counters[key] { return existing }
      let counter = SnapshotCounter()
      counters[key] = counter
      return counter
    }
  }
}

extension SnapshotCounter {
  /// Called by ``XCTestActivity`` when an XCTest test case finishes.
  static func resetXCTestCounter() {
    xcTest.reset()
  }
}
