import Foundation

/// Why a strategy produced no snapshot.
struct SnapshotTimeoutError: Error, CustomStringConvertible {
  var timeout: TimeInterval
  var referenceURL: URL
  /// What the strategy said it was waiting for when time ran out, if it said.
  var waitingFor: String? = nil

  var description: String {
    if let waitingFor {
      return """
        Exceeded timeout of \(formatSeconds(timeout)) waiting for the snapshot for \
        "\(referenceURL.path)": the strategy was still waiting for \(waitingFor).

        Pass a larger `timeout:` to the assertion if that can take longer.
        """
    }
    return """
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

/// What an asynchronous snapshot in progress is waiting for, and how long the assertion waits
/// for it: a strategy that does slow work (loading a web page) notes each step here, so that a
/// timeout names the step, and can stop its own work once the assertion has given up.
///
/// Bound around a strategy's `Async.run`; the work reads it there (a `Task` started from `run`
/// inherits it).
package final class SnapshotWait: @unchecked Sendable {
  @TaskLocal package static var current: SnapshotWait?

  /// Seconds the assertion waits for the snapshot.
  package let timeout: TimeInterval
  private let lock = NSLock()
  private var step: String?

  package init(timeout: TimeInterval) {
    self.timeout = timeout
  }

  /// Notes what the snapshot waits for now ("the load event of http://…").
  package func waiting(for step: String) {
    lock.withLock { self.step = step }
  }

  /// The last step noted.
  package var waitingFor: String? { lock.withLock { step } }
}

/// Runs a strategy's `async` snapshot and waits at most `timeout` seconds for it.
func awaitSnapshot<Format>(
  _ async: Async<Format>,
  timeout: TimeInterval,
  referenceURL: URL
) throws(SnapshotTimeoutError) -> Format {
  let wait = SnapshotWait(timeout: timeout)
  let value = SnapshotWait.$current.withValue(wait) { awaitValue(async, timeout: timeout) }
  guard let value
  else {
    throw SnapshotTimeoutError(
      timeout: timeout,
      referenceURL: referenceURL,
      waitingFor: wait.waitingFor
    )
  }
  return value
}
