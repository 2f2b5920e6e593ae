import Dispatch
import Foundation
import Testing
import XCTest

@testable import SnapshotTesting

/// Which test a failure reaches, decided where it is reported. What a whole test process does with
/// a failure that no test owns is in `UnownedFailureProcessTests`.
@Suite struct IssueOwnerTests {
  @Test func aSwiftTestingTestOwnsWhatItsTasksReport() {
    #expect(
      IssueOwner.decide(inSwiftTestingTest: true, xcTestCaseIsRunning: false) == .swiftTestingTest
    )
    #expect(
      IssueOwner.decide(inSwiftTestingTest: true, xcTestCaseIsRunning: true) == .swiftTestingTest
    )
    #expect(
      IssueOwner.decide(inSwiftTestingTest: true, xcTestCaseIsRunning: nil) == .swiftTestingTest
    )
  }

  @Test func otherwiseTheRunningXCTestCaseOrNoOne() {
    #expect(IssueOwner.decide(inSwiftTestingTest: false, xcTestCaseIsRunning: true) == .xcTestCase)
    #expect(IssueOwner.decide(inSwiftTestingTest: false, xcTestCaseIsRunning: false) == .noTest)
    // Not knowing (the observer came too late) keeps XCTest's behaviour.
    #expect(IssueOwner.decide(inSwiftTestingTest: false, xcTestCaseIsRunning: nil) == .xcTestCase)
  }

  @Test func theTestsTaskAndItsChildrenAreTheTests() async {
    #expect(IssueOwner.current == .swiftTestingTest)
    async let child = IssueOwner.current
    #expect(await child == .swiftTestingTest)
    #expect(await Task { IssueOwner.current }.value == .swiftTestingTest)
  }

  /// In the Swift Testing process no XCTest case runs (the hook watches XCTest from the start), so
  /// a queue, a thread or a detached task of a test has no owner.
  @Test func offTheTestsTaskNoTestOwnsAFailure() async throws {
    try #require(XCTestActivity.isTestCaseRunning == false)
    #expect(await Task.detached { IssueOwner.current }.value == .noTest)
    let fromQueue = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: IssueOwner.current) }
    }
    #expect(fromQueue == .noTest)
  }

  @Test func theReportOnStandardErrorSaysWhereWhyAndWhatToDo() {
    #expect(
      unownedFailureReport("Snapshot does not match reference.", filePath: "/p/T.swift", line: 7)
        == """
        /p/T.swift:7: error: This snapshot assertion failed where no test could record it: off \
        its test's task (in a DispatchQueue block, a Thread or a Task.detached) or after its test \
        ended. The test process will exit with a failing status. Await the work in the test and \
        assert on its task for the failure to be the test's.
        Snapshot does not match reference.

        """
    )
    #expect(unownedFailuresSummary(count: 0) == nil)
    #expect(
      unownedFailuresSummary(count: 1)
        == "error: 1 snapshot assertion failed where no test could record it (see above), so the "
        + "test process exits with a failing status.\n"
    )
    #expect(
      unownedFailuresSummary(count: 2)
        == "error: 2 snapshot assertions failed where no test could record them (see above), so "
        + "the test process exits with a failing status.\n"
    )
  }
}

/// Under XCTest, the running test case owns a failure from any thread, as `XCTFail` reports it
/// there.
final class IssueOwnerXCTests: XCTestCase {
  func testTheRunningTestCaseOwnsFailuresFromAnyThread() async {
    XCTAssertEqual(XCTestActivity.isTestCaseRunning, true)
    XCTAssertEqual(IssueOwner.current, .xcTestCase)
    let fromQueue = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: IssueOwner.current) }
    }
    XCTAssertEqual(fromQueue, .xcTestCase)
    let fromDetachedTask = await Task.detached { IssueOwner.current }.value
    XCTAssertEqual(fromDetachedTask, .xcTestCase)
  }
}
