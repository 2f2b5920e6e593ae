import Foundation

/// How a strategy says it could not produce a snapshot of a value (an `Encodable` that throws, a
/// property list of a scalar, an image compared with a precision outside `0...1`), without
/// changing the `Snapshotting` witness, whose `snapshot` cannot throw.
///
/// This is the one way a strategy's failure reaches the engine. The strategy calls
/// ``report(_:)`` while it builds or encodes the snapshot and returns what it returns as its
/// placeholder; the reason goes into the assertion's ``StrategyReports`` (the one task-local the
/// engine binds while it takes a snapshot), and the assertion fails with it and writes nothing,
/// in every record mode: the placeholder is never compared or recorded. A strategy whose work
/// ends on a thread of its own carries the assertion's reports there with
/// ``StrategyReportScope``; a report made on any other thread is not seen, and the placeholder is
/// compared as the snapshot.
package enum UnavailableSnapshot {
  /// Records that the snapshot being taken does not exist, and why, and returns `reason` for the
  /// strategy to use as its placeholder.
  @discardableResult
  package static func report(_ reason: String) -> String {
    StrategyReports.current?.append(.unavailable(reason))
    return reason
  }

  /// Runs `body` (which takes a snapshot) and returns its result with the first reason a strategy
  /// reported while it ran; warnings pass on to the reports bound around this call, if any.
  package static func collecting<R, Failure: Error>(
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> (R, reason: String?) {
    let (result, reports) = try StrategyReports.collecting(body)
    reports.forwardWarnings()
    return (result, reports.unavailable)
  }
}

/// How a strategy tells the user something that does not fail the assertion: an image compared
/// with masks that cover all of it, for example. The assertion reports each warning as a Swift
/// Testing warning (an XCTest run prints it), whatever its outcome.
///
/// A warning travels the same way as ``UnavailableSnapshot``'s reasons, in the same
/// ``StrategyReports``.
package enum SnapshotWarning {
  /// Records a warning for the assertion taking a snapshot.
  package static func report(_ message: String) {
    StrategyReports.current?.append(.warning(message))
  }

  /// Runs `body` and returns its result with the warnings reported while it ran, in order;
  /// reasons a strategy could not snapshot pass on to the reports bound around this call.
  package static func collecting<R, Failure: Error>(
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> (R, warnings: [String]) {
    let (result, reports) = try StrategyReports.collecting(body)
    reports.forwardUnavailable()
    return (result, reports.warnings)
  }
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
  private let reports: StrategyReports?

  /// The assertion's reports, as bound where this is read.
  package static var current: StrategyReportScope {
    StrategyReportScope(reports: StrategyReports.current)
  }

  /// Runs `body` with reports going to this scope's assertion.
  package func bind<R>(_ body: () throws -> R) rethrows -> R {
    try StrategyReports.$current.withValue(reports, operation: body)
  }
}

/// What strategies reported while one assertion took its snapshot, in order: the reasons it could
/// not be taken (``UnavailableSnapshot``) and the warnings (``SnapshotWarning``). The engine binds
/// a fresh one around taking and encoding each snapshot (``collecting(_:)``) and reads it after.
package final class StrategyReports: @unchecked Sendable {
  /// One thing a strategy reported.
  enum Report {
    case unavailable(String)
    case warning(String)
  }

  /// The reports of the snapshot being taken on this task; nil outside an assertion.
  @TaskLocal static var current: StrategyReports?

  private let lock = NSLock()
  private var reports: [Report] = []
  /// The reports bound when this one was, which a collector that takes only one kind hands the
  /// other kind on to.
  private let enclosing: StrategyReports?

  init(enclosing: StrategyReports?) {
    self.enclosing = enclosing
  }

  func append(_ report: Report) {
    lock.withLock { reports.append(report) }
  }

  /// The first reason the snapshot could not be taken, if any.
  package var unavailable: String? {
    lock.withLock {
      reports.lazy.compactMap { if case .unavailable(let reason) = $0 { reason } else { nil } }
        .first
    }
  }

  /// Every warning, in order.
  package var warnings: [String] {
    lock.withLock {
      reports.compactMap { if case .warning(let message) = $0 { message } else { nil } }
    }
  }

  fileprivate func forwardWarnings() {
    for warning in warnings { enclosing?.append(.warning(warning)) }
  }

  fileprivate func forwardUnavailable() {
    if let unavailable { enclosing?.append(.unavailable(unavailable)) }
  }

  /// Runs `body` with fresh reports bound, and returns its result and what was reported.
  package static func collecting<R, Failure: Error>(
    _ body: () throws(Failure) -> R
  ) throws(Failure) -> (R, StrategyReports) {
    let reports = StrategyReports(enclosing: current)
    // `withValue` only rethrows untyped errors: carry the typed one out in a `Result`.
    let result = $current.withValue(reports) { Result { () throws(Failure) -> R in try body() } }
    return (try result.get(), reports)
  }

  /// ``collecting(_:)`` for a body that suspends.
  package static func collecting<R>(
    _ body: () async throws -> R
  ) async rethrows -> (R, StrategyReports) {
    let reports = StrategyReports(enclosing: current)
    let result = try await $current.withValue(reports, operation: body)
    return (result, reports)
  }
}
