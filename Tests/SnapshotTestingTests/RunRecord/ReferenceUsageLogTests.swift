import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

@Suite struct ReferenceUsageLogTests {
  @Test func referencesFromConcurrentAssertionsAreLoggedOnceAndIntact() throws {
    try withTemporaryDirectory { usage in
      try withTemporaryDirectory { root in
        var configured = SnapshotSandbox(root: root)
        configured.environment[.usedReferences] = usage.path
        let sandbox = configured
        DispatchQueue.concurrentPerform(iterations: 40) { index in
          _ = sandbox.verify("a", as: .lines, named: "a\(index)", record: .missing)
          _ = sandbox.verify("a", as: .lines, named: "a\(index)", record: .missing)
          _ = sandbox.verify("b", as: .lines, named: "b\(index)", record: .never)
        }

        let contents = try ReferenceUsageLog.load(folder: usage)
        let (paths, processes) = (contents.paths, contents.processes)
        let expected = Set(
          (0..<40).flatMap { index in
            ["a\(index)", "b\(index)"].map { sandbox.reference("sandbox.\($0).txt").path }
          }
        )
        #expect(paths == expected)
        let lines = try fileNames(in: usage).filter { $0.hasPrefix("references-") }.flatMap {
          try String(contentsOf: usage.appendingPathComponent($0), encoding: .utf8)
            .split(separator: "\n")
        }
        #expect(lines.count == expected.count, "each reference is logged once")
        #expect(processes.count == 1)
        #expect(processes.first?.arguments == CommandLine.arguments)
      }
    }
  }

  @Test func disabledWithoutTheEnvironmentVariable() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("a", as: .lines, named: "a", record: .missing)
      #expect(sandbox.environment[.usedReferences] == nil)
      #expect(fileNames(in: root) == ["__Snapshots__"])
    }
  }
}
