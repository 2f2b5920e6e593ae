import Foundation
import RunRecord

/// Measurement only: how the web snapshots started inside ``run(_:)`` treat a finished page's
/// browser context, and how long each reset of a kept context took. For `Benchmarks/Web`, which
/// weighs the reset (`ContextReset`) against what reuse saves, in one run.
///
/// ```swift
/// @_spi(Benchmarks) import WebSnapshotTesting
///
/// let measurement = ContextReuseMeasurement(.reusedWithoutReset)
/// measurement.run { /* snapshots, one after another */ }
/// print(measurement.resetMilliseconds)   // empty: nothing was reset
/// ```
///
/// Why an `@_spi(Benchmarks)` entry, and not a setting: the benchmark is a package of its own and
/// cannot reach `package` declarations, and the reset must not be something a user can turn
/// off. This is no part of the public API (the documentation leaves it out, and it takes
/// `@_spi(Benchmarks) import` written in code), there is no environment variable or
/// configuration behind it, and it holds only for the snapshots started inside ``run(_:)``
/// (through a task-local): a context handed on without its reset is never given to a snapshot
/// outside it, which gets a new context instead.
@_spi(Benchmarks)
public final class ContextReuseMeasurement: Sendable {
  /// What becomes of a finished page's browser context.
  public enum Reuse: Sendable {
    /// What every snapshot does: the context is emptied by the browser (every other target
    /// closed, its origins' data cleared and verified) and handed to a later page.
    case resetAndReused
    /// **Unsafe**: the context is handed to a later page without its reset, so a page sees what
    /// earlier pages left. Only to weigh what the reset costs.
    case reusedWithoutReset
    /// A new browser context for every page, the finished one disposed: what reuse saves.
    case neverReused
  }

  /// How the snapshots inside ``run(_:)`` treat contexts.
  public let reuse: Reuse

  private let durations = Locked<[Double]>([])

  /// A measurement that treats contexts as `reuse` says.
  public init(_ reuse: Reuse) {
    self.reuse = reuse
  }

  /// Runs `operation`; the web snapshots it starts, and the tasks they start, treat contexts as
  /// ``reuse`` says and record how long each reset took.
  public func run<R>(_ operation: () throws -> R) rethrows -> R {
    try TestHooks.with(Self.self, self, operation: operation)
  }

  /// How long each reset of a kept context took, in milliseconds, in the order they ended:
  /// from the later page being open in the context to the browser reporting it empty. The
  /// reset runs after its snapshot was handed on, so this is not on a snapshot's path unless
  /// snapshots follow one another with nothing in between.
  public var resetMilliseconds: [Double] {
    durations.withLock { $0 }
  }

  /// The measurement bound for the current task, if any.
  static var current: ContextReuseMeasurement? {
    TestHooks.value(Self.self)
  }

  /// The reuse in effect for the current task: the product's, unless a measurement (or a test,
  /// through `TestHooks`) asks for another.
  static var currentReuse: Reuse {
    current?.reuse ?? .resetAndReused
  }

  func recordReset(milliseconds: Double) {
    durations.withLock { $0.append(milliseconds) }
  }
}

extension ContextReuseMeasurement: TestHookKey {
  package typealias Value = ContextReuseMeasurement
}
