import Foundation

/// How many pages render at once: twice the processor count. Past that the browser's renderers
/// only compete for the processors, and every snapshot of a burst (Swift Testing's parallel
/// tests) finishes late, each one closer to its timeout; in turn, the first ones finish early.
actor PageLimiter {
  nonisolated var unownedExecutor: UnownedSerialExecutor {
    WebExecutor.shared.unownedSerialExecutor
  }

  static let shared = PageLimiter(limit: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))

  private let limit: Int
  private var running = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(limit: Int) {
    self.limit = limit
  }

  /// Waits for a free place.
  func acquire() async {
    if running < limit {
      running += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Frees a place, handing it to the longest waiting snapshot.
  func release() {
    if waiting.isEmpty {
      running -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
