import Foundation
@_spi(Internals) import SnapshotTesting

/// An asynchronous strategy that never delivered its text.
struct InlineSnapshotTimeoutError: Error, CustomStringConvertible {
  var timeout: TimeInterval

  var description: String {
    """
    Exceeded timeout of \(timeout) seconds waiting for snapshot.

    This can happen when an asynchronously loaded value (like a network response) has not \
    loaded, or when a custom strategy's `Async` never calls back. If a timeout is unavoidable, \
    pass a larger "timeout" to "assertInlineSnapshot".
    """
  }
}

/// Holds the text an `Async` delivers, from whichever thread delivers it.
private final class InlineDelivery: @unchecked Sendable {
  private let lock = NSLock()
  private var text: String?
  let arrived = DispatchSemaphore(value: 0)

  func deliver(_ newText: String) {
    let isFirst = lock.withLock { () -> Bool in
      guard text == nil else { return false }
      text = newText
      return true
    }
    if isFirst { arrived.signal() }
  }

  var delivered: String? { lock.withLock { text } }
}

/// Runs `async` and waits at most `timeout` seconds for its text, turning the main run loop
/// while waiting on the main thread so strategies that finish there can complete.
func awaitInlineSnapshot(
  _ async: Async<String>,
  timeout: TimeInterval
) throws(InlineSnapshotTimeoutError) -> String {
  let delivery = InlineDelivery()
  async.run { delivery.deliver($0) }
  if let text = delivery.delivered { return text }
  let deadline = Date(timeIntervalSinceNow: max(0, timeout))
  if Thread.isMainThread {
    while Date() < deadline, delivery.delivered == nil {
      _ = RunLoop.current.run(
        mode: .default,
        before: min(deadline, Date(timeIntervalSinceNow: 0.01))
      )
    }
  } else {
    _ = delivery.arrived.wait(timeout: .now() + max(0, timeout))
  }
  guard let text = delivery.delivered else { throw InlineSnapshotTimeoutError(timeout: timeout) }
  return text
}
