import Foundation
import Testing

@testable import SnapshotTesting

/// A format that encodes only to write (images): a match decodes the reference and compares,
/// never calling `toData`; every outcome that writes a file encodes once; the strategy's check
/// runs on every assertion.
@Suite struct EncodesOnlyToWriteTests {
  /// Counts the calls a strategy's witnesses get.
  final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func note(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
    subscript(name: String) -> Int { lock.withLock { counts[name, default: 0] } }
    func reset() { lock.withLock { counts = [:] } }
  }

  /// Text stored as text, but flagged to encode only to write; `check` reports problems.
  static func strategy(_ calls: Calls, problem: String? = nil) -> Snapshotting<String, String> {
    var diffing = Diffing<String>.diff(
      toData: { calls.note("toData"); return Data($0.utf8) },
      fromData: { calls.note("fromData"); return String(decoding: $0, as: UTF8.self) },
      diffV2: { reference, new in
        calls.note("diff")
        return reference == new ? nil : ("\(reference) ≠ \(new)", [])
      }
    )
    diffing.encodesOnlyToWrite = { _ in
      calls.note("check")
      if let problem { UnavailableSnapshot.report(problem) }
    }
    return Snapshotting(pathExtension: "txt", diffing: diffing)
  }

  static func withSandbox(_ body: (SnapshotSandbox) throws -> Void) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: root) }
    try body(SnapshotSandbox(root: root))
  }

  @Test func aMatchDecodesAndComparesWithoutEncoding() throws {
    try Self.withSandbox { sandbox throws in
      let calls = Calls()
      let strategy = Self.strategy(calls)
      #expect(sandbox.verify("same", as: strategy, named: "x", record: .all) != nil)
      #expect(calls["toData"] == 1, "recording encodes once")
      calls.reset()

      #expect(sandbox.verify("same", as: strategy, named: "x", record: .never) == nil)
      #expect(calls["toData"] == 0)
      #expect(calls["fromData"] == 1)
      #expect(calls["diff"] == 1)
      #expect(calls["check"] == 1)
    }
  }

  @Test func aMismatchEncodesOnceForItsArtifacts() throws {
    try Self.withSandbox { sandbox throws in
      let calls = Calls()
      let strategy = Self.strategy(calls)
      _ = sandbox.verify("old", as: strategy, named: "x", record: .all)
      calls.reset()

      let message = sandbox.verify("new", as: strategy, named: "x", record: .never)
      #expect(message?.contains("old ≠ new") == true)
      #expect(calls["toData"] == 1)
      #expect(try String(contentsOf: sandbox.artifact("sandbox.x.txt"), encoding: .utf8) == "new")
      #expect(try String(contentsOf: sandbox.reference("sandbox.x.txt"), encoding: .utf8) == "old")

      calls.reset()
      _ = sandbox.verify("newer", as: strategy, named: "x", record: .failed)
      #expect(calls["toData"] == 1)
      #expect(try String(contentsOf: sandbox.reference("sandbox.x.txt"), encoding: .utf8) == "newer")
    }
  }

  @Test func theCheckFailsEvenAMatchingValueAndNothingIsWritten() throws {
    try Self.withSandbox { sandbox throws in
      let calls = Calls()
      _ = sandbox.verify("same", as: Self.strategy(calls), named: "x", record: .all)
      let failing = Self.strategy(calls, problem: "a problem with the strategy")
      for record in [SnapshotTestingConfiguration.Record.never, .all] {
        calls.reset()
        let message = sandbox.verify("same", as: failing, named: "x", record: record)
        #expect(message?.contains("a problem with the strategy") == true)
        #expect(calls["toData"] == 0, "nothing encoded, nothing written")
      }
      #expect(try String(contentsOf: sandbox.reference("sandbox.x.txt"), encoding: .utf8) == "same")
    }
  }

  @Test func withoutTheFlagEqualBytesMatchWithoutDecoding() throws {
    try Self.withSandbox { sandbox throws in
      let calls = Calls()
      var strategy = Self.strategy(calls)
      strategy.diffing.encodesOnlyToWrite = nil
      _ = sandbox.verify("same", as: strategy, named: "x", record: .all)
      calls.reset()
      #expect(sandbox.verify("same", as: strategy, named: "x", record: .never) == nil)
      #expect(calls["toData"] == 1)
      #expect(calls["fromData"] == 0)
      #expect(calls["diff"] == 0)
    }
  }
}
