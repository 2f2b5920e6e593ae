import DatabaseSnapshotTesting
import Foundation
import Synchronization
import Testing

/// A synchronous assertion blocks its thread while the strategy's statements run. Swift Testing
/// runs tests on the cooperative pool (one thread per core), so parallel synchronous assertions
/// can hold every thread of it: the strategies' work must not need one.
@Suite struct PoolTests {
  /// As many synchronous assertions as the pool has threads, each blocking a pool thread, and
  /// each connection's statement waiting until every statement has started. Had the statements
  /// been scheduled on the pool, none could start once the assertions held it, and each would end
  /// at its timeout with no text.
  @Test func synchronousAssertionsHoldingEveryPoolThreadStillGetTheirRows() async throws {
    let width = ProcessInfo.processInfo.activeProcessorCount
    let meeting = Meeting(expected: width)
    let texts = await withTaskGroup(of: String?.self) { group in
      for index in 0..<width {
        group.addTask {
          let connection = SQLConnection(dialect: .sqlite, server: "meeting \(index)") { _ in
            await meeting.arrive()
            return SQLResult(columns: ["n"], rows: [[.text("\(index)")]])
          }
          // Blocks this pool thread, as `assertSnapshot(of:as:)` does.
          return awaitValue(
            Snapshotting<SQLConnection, String>.rows("SELECT n").snapshot(connection),
            timeout: 120
          )
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(texts.count == width)
    #expect(texts.allSatisfy { $0 != nil }, "\(texts)")
    #expect(meeting.arrived == width)
  }
}

/// Holds everyone who arrives until `expected` have.
private final class Meeting: Sendable {
  private let expected: Int
  private let state = Mutex<(count: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

  init(expected: Int) { self.expected = expected }

  var arrived: Int { state.withLock { $0.count } }

  func arrive() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        state.count += 1
        state.waiting.append(continuation)
        guard state.count >= expected else { return [] }
        defer { state.waiting = [] }
        return state.waiting
      }
      for waiting in released { waiting.resume() }
    }
  }
}
