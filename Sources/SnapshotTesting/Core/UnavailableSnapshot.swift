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
  @TaskLocal private static var current: StrategyReports?

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
    let (result, reasons) = try StrategyReports.collecting(into: $current, body)
    return (result, reasons.first)
  }
}

/// How a strategy tells the user something that does not fail the assertion: an image compared
/// with masks that cover all of it, for example. The assertion reports each warning as a Swift
/// Testing warning (an XCTest run prints it), whatever its outcome.
///
/// Like ``UnavailableSnapshot``, a warning reaches the assertion when made on its task, while
/// the strategy takes or encodes the snapshot.
package enum SnapshotWarning {
  @TaskLocal private static var current: StrategyReports?

  /// Records a warning for the assertion taking a snapshot.
  package static func report(_ message: String) {
    current?.append(message)
  }

  /// Runs `body` and returns its result with the warnings reported while it ran, in order.
  package static func collecting<R, Failure: Error>(
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> (R, warnings: [String]) {
    let (result, reports) = try StrategyReports.collecting(into: $current, body)
    return (result, reports.all)
  }
}

/// What strategies reported while one assertion took its snapshot, in order.
package final class StrategyReports: @unchecked Sendable {
  private let lock = NSLock()
  private var reports: [String] = []

  package init() {}

  func append(_ report: String) {
    lock.withLock { reports.append(report) }
  }

  /// The first report, if any.
  package var first: String? { lock.withLock { reports.first } }

  /// Every report, in order.
  package var all: [String] { lock.withLock { reports } }

  /// Runs `body` with a fresh list bound to `taskLocal`, and returns its result and the list.
  fileprivate static func collecting<R, Failure: Error>(
    into taskLocal: TaskLocal<StrategyReports?>,
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> (R, StrategyReports) {
    let reports = StrategyReports()
    // `withValue` only rethrows untyped errors: carry the typed one out in a `Result`.
    let result = taskLocal.withValue(reports) { Result { () throws(Failure) -> R in try body() } }
    return (try result.get(), reports)
  }
}
