import Foundation

/// How a strategy says it could not produce a snapshot of a value (an `Encodable` that throws, a
/// property list of a scalar, an image compared with a precision outside `0...1`), without
/// changing the `Snapshotting` witness, whose `snapshot` cannot throw.
///
/// A strategy calls ``report(_:)`` while it builds the snapshot and returns any placeholder; the
/// assertion that asked for the snapshot fails with the reason and writes nothing, in every record
/// mode. Reports reach the assertion while the strategy runs on the assertion's own task, which is
/// where the package's strategies do this work; a report made from another thread is not seen,
/// and the placeholder is compared as the snapshot.
package enum UnavailableSnapshot {
  /// The reasons reported while one assertion took its snapshot.
  package final class Reasons: @unchecked Sendable {
    private let lock = NSLock()
    private var reasons: [String] = []

    package init() {}

    func append(_ reason: String) {
      lock.withLock { reasons.append(reason) }
    }

    /// The first reason reported, if any.
    package var first: String? { lock.withLock { reasons.first } }
  }

  @TaskLocal private static var current: Reasons?

  /// Records that the snapshot being taken does not exist, and why, and returns `reason` for the
  /// strategy to use as its placeholder.
  @discardableResult
  package static func report(_ reason: String) -> String {
    current?.append(reason)
    return reason
  }

  /// Runs `body` (which takes a snapshot) and returns its result with the first reason a strategy
  /// reported while it ran.
  package static func collecting<R, Failure: Error>(
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> (R, reason: String?) {
    let reasons = Reasons()
    // `withValue` only rethrows untyped errors: carry the typed one out in a `Result`.
    let result = $current.withValue(reasons) { Result { () throws(Failure) -> R in try body() } }
    return (try result.get(), reasons.first)
  }
}
