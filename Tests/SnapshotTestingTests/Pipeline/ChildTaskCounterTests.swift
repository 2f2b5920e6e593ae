import Foundation
import Testing

@testable import SnapshotTesting

/// Unnamed snapshots made in a test's child tasks, without the `.snapshots` trait, continue the
/// test's numbering, as upstream's: `async let`, `Task {}` and task-group children share the
/// parent's counter instead of starting again at 1 and comparing against the parent's references.
@Suite struct ChildTaskCounterTests {
  /// The issue's case: references recorded as the parent's 1 and the child's 2 match on the next
  /// run; a child that counted from 1 again compared "child" with the parent's "parent".
  @Test func asyncLetComparesAgainstItsOwnReference() async throws {
    try await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("parent", to: "sandbox.1.txt")
      try sandbox.write("child", to: "sandbox.2.txt")
      let parent = sandbox.verify("parent", as: .lines, record: .never)
      async let child = sandbox.verify("child", as: .lines, record: .never)
      let childMessage = await child
      #expect(parent == nil)
      #expect(childMessage == nil, "\(childMessage ?? "")")
    }
  }

  @Test func asyncLetContinuesTheParentsNumbering() async throws {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      let first = sandbox.verify("a", as: .lines, record: .all)
      async let child = sandbox.verify("b", as: .lines, record: .all)
      let second = await child
      let third = sandbox.verify("c", as: .lines, record: .all)
      #expect(recordedName(first) == "sandbox.1.txt")
      #expect(recordedName(second) == "sandbox.2.txt")
      #expect(recordedName(third) == "sandbox.3.txt")
      #expect(contents(of: sandbox.reference("sandbox.2.txt")) == "b")
    }
  }

  @Test func unstructuredTaskContinuesTheParentsNumbering() async throws {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      let first = sandbox.verify("a", as: .lines, record: .all)
      let second = await Task { sandbox.verify("b", as: .lines, record: .all) }.value
      let third = await Task { sandbox.verify("c", as: .lines, record: .all) }.value
      #expect(recordedName(first) == "sandbox.1.txt")
      #expect(recordedName(second) == "sandbox.2.txt")
      #expect(recordedName(third) == "sandbox.3.txt")
    }
  }

  /// Children that assert at the same time take the next numbers in the order they reach the
  /// assertion, so each number is used once.
  @Test func taskGroupChildrenContinueTheParentsNumbering() async throws {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      let first = sandbox.verify("parent", as: .lines, record: .all)
      let children = await withTaskGroup(of: String?.self) { group in
        for index in 0..<4 {
          group.addTask { sandbox.verify("child \(index)", as: .lines, record: .all) }
        }
        return await group.reduce(into: [String?]()) { $0.append($1) }
      }
      let last = sandbox.verify("parent again", as: .lines, record: .all)
      #expect(recordedName(first) == "sandbox.1.txt")
      #expect(
        Set(children.map(recordedName))
          == ["sandbox.2.txt", "sandbox.3.txt", "sandbox.4.txt", "sandbox.5.txt"]
      )
      #expect(recordedName(last) == "sandbox.6.txt")
    }
  }

  /// Another test's counter is its own, even while this one's children share theirs.
  @Test(arguments: 0..<8)
  func parallelCasesWithChildrenEachStartAtOne(_ index: Int) async throws {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      async let child = sandbox.verify("child \(index)", as: .lines, record: .all)
      let fromChild = await child
      let fromParent = sandbox.verify("parent \(index)", as: .lines, record: .all)
      #expect(recordedName(fromChild) == "sandbox.1.txt")
      #expect(recordedName(fromParent) == "sandbox.2.txt")
    }
  }
}

/// The folder the cases of EqualArgumentsCounterTests share, removed after the last.
private let equalArgumentsCounterTestsFolder = FileManager.default.temporaryDirectory
  .appendingPathComponent("EqualArgumentsCounterTests-\(UUID().uuidString)", isDirectory: true)

/// Cases whose arguments are equal are still counted apart, now that the task no longer tells
/// them apart: Swift Testing numbers them in its description of each case. All of them write into
/// one folder under one test name, so a shared counter would hand out numbers above 3.
@Suite(.removing(equalArgumentsCounterTestsFolder)) struct EqualArgumentsCounterTests {
  static let folder = equalArgumentsCounterTestsFolder

  @Test(arguments: Array(repeating: 7, count: 12))
  func casesWithEqualArgumentsEachStartAtOne(_ value: Int) {
    let sandbox = SnapshotSandbox(root: Self.folder)
    for step in 1...3 {
      let message = sandbox.verify("\(value)", as: .lines, record: .all)
      #expect(recordedName(message) == "sandbox.\(step).txt")
    }
  }
}

/// The reference file a recording's message names (`…/sandbox.2.txt`), or `nil`.
func recordedName(_ message: String?) -> String? {
  guard let message else { return nil }
  return (1...9).map { "sandbox.\($0).txt" }.first { message.contains("/\($0)") }
}
