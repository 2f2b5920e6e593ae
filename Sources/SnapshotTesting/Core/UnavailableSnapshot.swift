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

  /// ``collecting(_:)`` for a body that suspends.
  package static func collecting<R>(
    _ body: () async throws -> R
  ) async rethrows -> (R, reason: String?) {
    let (result, reasons) = try await StrategyReports.collecting(into: $current, body)
    return (result, reasons.first)
  }

  fileprivate static var reports: StrategyReports? { current }
  fileprivate static var binding: TaskLocal<StrategyReports?> { $current }
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

  /// ``collecting(_:)`` for a body that suspends.
  package static func collecting<R>(
    _ body: () async throws -> R
  ) async rethrows -> (R, warnings: [String]) {
    let (result, reports) = try await StrategyReports.collecting(into: $current, body)
    return (result, reports.all)
  }

  fileprivate static var reports: StrategyReports? { current }
  fileprivate static var binding: TaskLocal<StrategyReports?> { $current }
}

/// Where the reports of the snapshot being taken go, carried to a strategy's work that finishes
/// on a thread of its own (a command's runner), so that what it reports there still reaches the
/// assertion.
///
/// ```swift
/// let reports = StrategyReportScope.current  // in `Async.run`, on the assertion's task
/// Thread { reports.bind { UnavailableSnapshot.report("…") } }.start()
/// ```
package struct StrategyReportScope: @unchecked Sendable {
  private let unavailable: StrategyReports?
  private let warnings: StrategyReports?

  /// The assertion's lists, as bound where this is read.
  package static var current: StrategyReportScope {
    StrategyReportScope(unavailable: UnavailableSnapshot.reports, warnings: SnapshotWarning.reports)
  }

  /// Runs `body` with reports going to this scope's assertion.
  package func bind<R>(_ body: () throws -> R) rethrows -> R {
    try UnavailableSnapshot.binding.withValue(unavailable) {
      try SnapshotWarning.binding.withValue(warnings, operation: body)
    }
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

  fileprivate static func collecting<R>(
    into taskLocal: TaskLocal<StrategyReports?>,
    _ body: () async throws -> R
  ) async rethrows -> (R, StrategyReports) {
    let reports = StrategyReports()
    let result = try await taskLocal.withValue(reports, operation: body)
    return (result, reports)
  }
}
