import Foundation
import Synchronization

/// Runs blocking work (a synchronous assertion, which waits for the strategy's task) on a thread
/// of its own, so that no thread of Swift's cooperative pool waits for work that needs one.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Waits for async work from a synchronous XCTest test (on the main thread, off the pool).
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let result = Mutex<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let value: Result<T, any Error>
    do { value = .success(try await body()) } catch { value = .failure(error) }
    result.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  return try result.withLock { $0 }!.get()
}
