import Foundation
import Testing

@testable import SnapshotTesting

/// The folder the cases of ParallelCounterTests share, removed after the last.
private let parallelCounterTestsFolder = FileManager.default.temporaryDirectory
  .appendingPathComponent("ParallelCounterTests-\(UUID().uuidString)", isDirectory: true)

/// 120 test cases run in parallel, each asserting several unnamed snapshots: every case must number
/// its own snapshots 1, 2, 3 and find its own references.
@Suite(.removing(parallelCounterTestsFolder)) struct ParallelCounterTests {
  static let folder = parallelCounterTestsFolder

  @Test(arguments: 0..<120)
  func eachTestNumbersItsOwnSnapshots(_ index: Int) throws {
    let sandbox = SnapshotSandbox(root: Self.folder)
    let testName = "case\(index)()"
    for step in 1...3 {
      let message = sandbox.verify(
        "case \(index) step \(step)\n",
        as: .lines,
        record: .all,
        testName: testName
      )
      #expect(message?.contains("case\(index).\(step).txt") == true)
    }
    // A second execution of the test (a fresh counter) compares against what the first recorded.
    var execution = SnapshotTestingConfiguration.entering()
    execution.scope.counter = SnapshotCounter()
    SnapshotTestingConfiguration.$current.withValue(execution) {
      for step in 1...3 {
        let message = sandbox.verify(
          "case \(index) step \(step)\n",
          as: .lines,
          record: .never,
          testName: testName
        )
        #expect(message == nil)
      }
    }
    for step in 1...3 {
      #expect(
        contents(of: sandbox.reference("case\(index).\(step).txt"))
          == "case \(index) step \(step)\n"
      )
    }
  }

  @Test(arguments: 0..<50)
  func parameterizedCasesOfOneTestEachStartAtOne(_ index: Int) throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      for step in 1...3 {
        let message = try #require(sandbox.verify("\(index)", as: .lines, record: .all))
        #expect(message.contains("sandbox.\(step).txt"))
      }
    }
  }

  @Test(.snapshots, arguments: 0..<20)
  func traitScopedCountersAreInheritedByChildTasks(_ index: Int) async throws {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      let first = sandbox.verify("a", as: .lines, record: .all)
      let second = await Task { sandbox.verify("b", as: .lines, record: .all) }.value
      #expect(first?.contains("sandbox.1.txt") == true)
      #expect(second?.contains("sandbox.2.txt") == true)
    }
  }
}

func withTemporaryDirectoryAsync<R>(_ body: (URL) async throws -> R) async rethrows -> R {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("SnapshotTestingTests-\(UUID().uuidString)", isDirectory: true)
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: url) }
  return try await body(url)
}
