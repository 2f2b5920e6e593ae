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

/// Runs `async` and waits at most `timeout` seconds for its value (longer if the strategy asked
/// for more time, through ``SnapshotWait/allow(atLeast:)``); `nil` if it never came.
///
/// On the main thread the run loop keeps turning while waiting, so strategies that finish their
/// work on the main queue (as XCTest-era strategies do) can complete; elsewhere the thread simply
/// blocks. Shared with the inline snapshot module.
package func awaitValue<Value>(_ async: Async<Value>, timeout: TimeInterval) -> Value? {
  guard let wait = SnapshotWait.current else {
    return SnapshotWait.$current.withValue(SnapshotWait(timeout: timeout)) {
      awaitValue(async, timeout: timeout)
    }
  }
  let delivery = Delivery<Value>()
  async.run { delivery.deliver($0) }
  if let value = delivery.delivered { return value }

  let start = Date()
  // The deadline is read again whenever it passes: the strategy may have asked for more time.
  while Date() < start.addingTimeInterval(wait.effectiveTimeout) {
    let deadline = start.addingTimeInterval(wait.effectiveTimeout)
    if Thread.isMainThread {
      if delivery.arrived.wait(timeout: .now() + .milliseconds(2)) == .success { break }
      _ = RunLoop.current.run(
        mode: .default,
        before: min(deadline, Date(timeIntervalSinceNow: 0.01))
      )
    } else {
      let left = max(0, deadline.timeIntervalSinceNow)
      if delivery.arrived.wait(timeout: .now() + left) == .success { break }
    }
  }
  return delivery.delivered
}

/// Runs `async` and suspends, without holding a thread, until its value comes or the wait's
/// (possibly extended) timeout passes; `nil` if it never came.
func suspendForValue<Value>(_ async: Async<Value>, wait: SnapshotWait) async -> Value? {
  let handoff = Handoff<Value>()
  let delivered = await withCheckedContinuation {
    (continuation: CheckedContinuation<UncheckedSendable<Value?>, Never>) in
    handoff.install(continuation)
    async.run { handoff.finish($0) }
    handoff.expire(after: wait, start: .now())
  }
  return delivered.value
}

/// Resumes a suspended assertion once: with the value, or with `nil` when time ran out.
private final class Handoff<Value>: @unchecked Sendable {
  private let lock = NSLock()
  // The value crosses from the strategy's thread to the assertion's task, as `Async` promises.
  private var continuation: CheckedContinuation<UncheckedSendable<Value?>, Never>?

  func install(_ continuation: CheckedContinuation<UncheckedSendable<Value?>, Never>) {
    lock.withLock { self.continuation = continuation }
  }

  func finish(_ value: Value?) {
    let waiting = lock.withLock { () -> CheckedContinuation<UncheckedSendable<Value?>, Never>? in
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(returning: UncheckedSendable(value))
  }

  /// Ends the wait with `nil` at its deadline, unless the strategy moved the deadline meanwhile.
  func expire(after wait: SnapshotWait, start: DispatchTime) {
    let deadline = start + wait.effectiveTimeout
    DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in
      if DispatchTime.now() < start + wait.effectiveTimeout {
        expire(after: wait, start: start)
      } else {
        finish(nil)
      }
    }
  }
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
  private var allowed: TimeInterval = 0
  /// Seconds not counted against the timeout, and since when time is not counted, if it is not.
  private var uncounted: TimeInterval = 0
  private var uncountedSince: DispatchTime?

  package init(timeout: TimeInterval) {
    self.timeout = timeout
  }

  /// Notes what the snapshot waits for now ("the load event of http://…").
  package func waiting(for step: String) {
    lock.withLock { self.step = step }
  }

  /// The last step noted.
  package var waitingFor: String? { lock.withLock { step } }

  /// Lets the snapshot take at least `seconds` (from the start of the wait), for a strategy
  /// whose value carries its own, longer time limit (a command's `timeout`).
  package func allow(atLeast seconds: TimeInterval) {
    lock.withLock { allowed = max(allowed, seconds) }
  }

  /// Seconds the snapshot may take: its timeout, or what the strategy allowed itself, if longer.
  package var limit: TimeInterval {
    lock.withLock { max(0, timeout, allowed) }
  }

  /// Stops counting time against ``limit`` until ``resumeCounting()``: the strategy waits for
  /// something that has a deadline of its own (a browser's start).
  package func pauseCounting() {
    lock.withLock { if uncountedSince == nil { uncountedSince = .now() } }
  }

  /// Counts time against ``limit`` again.
  package func resumeCounting() {
    lock.withLock {
      guard let since = uncountedSince else { return }
      uncounted += Self.seconds(since: since)
      uncountedSince = nil
    }
  }

  private static func seconds(since start: DispatchTime) -> TimeInterval {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  /// Seconds the assertion waits from its start: ``limit`` and the time not counted against it
  /// (which grows while counting is paused).
  package var effectiveTimeout: TimeInterval {
    lock.withLock {
      max(0, timeout, allowed) + uncounted + (uncountedSince.map(Self.seconds(since:)) ?? 0)
    }
  }
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
      timeout: wait.limit,
      referenceURL: referenceURL,
      waitingFor: wait.waitingFor
    )
  }
  return value
}

/// ``awaitSnapshot(_:timeout:referenceURL:)`` for the `async` assertion: it suspends instead of
/// blocking its thread.
func suspendForSnapshot<Format>(
  _ async: Async<Format>,
  timeout: TimeInterval,
  referenceURL: URL
) async throws(SnapshotTimeoutError) -> Format {
  let wait = SnapshotWait(timeout: timeout)
  let value = await SnapshotWait.$current.withValue(wait) {
    await suspendForValue(async, wait: wait)
  }
  guard let value
  else {
    throw SnapshotTimeoutError(
      timeout: wait.limit,
      referenceURL: referenceURL,
      waitingFor: wait.waitingFor
    )
  }
  return value
}
