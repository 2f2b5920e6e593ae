import Foundation

/// Why a strategy produced no snapshot.
struct SnapshotTimeoutError: Error, CustomStringConvertible {
  var timeout: TimeInterval
  var referenceURL: URL

  var description: String {
    """
    Exceeded timeout of \(formatSeconds(timeout)) waiting for the snapshot for \
    "\(referenceURL.path)": the strategy's asynchronous snapshot never called back.

    A value that renders asynchronously may not have finished loading, or a custom strategy's \
    `Async` forgot to call its callback. Make sure the callback is always called, or pass a \
    larger `timeout:` to the assertion.
    """
  }
}

private func formatSeconds(_ seconds: TimeInterval) -> String {
  let rounded = (seconds * 1000).rounded() / 1000
  let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  return rounded == 1 ? "1 second" : "\(text) seconds"
}

/// Holds the value an `Async` delivers, from whichever thread delivers it.
private final class Delivery<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value?
  let arrived = DispatchSemaphore(value: 0)

  func deliver(_ newValue: Value) {
    let isFirst = lock.withLock { () -> Bool in
      guard value == nil else { return false }
      value = newValue
      return true
    }
    if isFirst { arrived.signal() }
  }

  var delivered: Value? { lock.withLock { value } }
}

/// Runs `async` and waits at most `timeout` seconds for its value; `nil` if it never came.
///
/// On the main thread the run loop keeps turning while waiting, so strategies that finish their
/// work on the main queue (as XCTest-era strategies do) can complete; elsewhere the thread simply
/// blocks. Shared with the inline snapshot module.
package func awaitValue<Value>(_ async: Async<Value>, timeout: TimeInterval) -> Value? {
  let delivery = Delivery<Value>()
  async.run { delivery.deliver($0) }
  if let value = delivery.delivered { return value }

  let deadline = Date(timeIntervalSinceNow: max(0, timeout))
  if Thread.isMainThread {
    while Date() < deadline {
      if delivery.arrived.wait(timeout: .now() + .milliseconds(2)) == .success { break }
      _ = RunLoop.current.run(
        mode: .default,
        before: min(deadline, Date(timeIntervalSinceNow: 0.01))
      )
    }
  } else {
    _ = delivery.arrived.wait(timeout: .now() + max(0, timeout))
  }
  return delivery.delivered
}

/// Runs a strategy's `async` snapshot and waits at most `timeout` seconds for it.
func awaitSnapshot<Format>(
  _ async: Async<Format>,
  timeout: TimeInterval,
  referenceURL: URL
) throws(SnapshotTimeoutError) -> Format {
  guard let value = awaitValue(async, timeout: timeout) else {
    throw SnapshotTimeoutError(timeout: timeout, referenceURL: referenceURL)
  }
  return value
}
