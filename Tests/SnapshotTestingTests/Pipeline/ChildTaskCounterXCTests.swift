import Foundation
import XCTest

@testable import SnapshotTesting

/// Under XCTest the counter is the process's, reset after each test case: child tasks of an
/// asynchronous test continue the test's numbering, as under Swift Testing.
final class ChildTaskCounterXCTests: XCTestCase {
  func testAsyncLetContinuesTheParentsNumbering() async throws {
    try await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("parent", to: "sandbox.1.txt")
      try sandbox.write("child", to: "sandbox.2.txt")
      XCTAssertNil(sandbox.verify("parent", as: .lines, record: .never))
      async let child = sandbox.verify("child", as: .lines, record: .never)
      let childMessage = await child
      XCTAssertNil(childMessage)
    }
  }

  func testUnstructuredTaskContinuesTheParentsNumbering() async throws {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      let first = sandbox.verify("a", as: .lines, record: .all)
      let second = await Task { sandbox.verify("b", as: .lines, record: .all) }.value
      XCTAssertEqual(recordedName(first), "sandbox.1.txt")
      XCTAssertEqual(recordedName(second), "sandbox.2.txt")
    }
  }

  func testTaskGroupChildrenContinueTheParentsNumbering() async throws {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      let first = sandbox.verify("parent", as: .lines, record: .all)
      let children = await withTaskGroup(of: String?.self) { group in
        for index in 0..<3 {
          group.addTask { sandbox.verify("child \(index)", as: .lines, record: .all) }
        }
        return await group.reduce(into: [String?]()) { $0.append($1) }
      }
      XCTAssertEqual(recordedName(first), "sandbox.1.txt")
      XCTAssertEqual(
        Set(children.map(recordedName)),
        ["sandbox.2.txt", "sandbox.3.txt", "sandbox.4.txt"]
      )
    }
  }
}
