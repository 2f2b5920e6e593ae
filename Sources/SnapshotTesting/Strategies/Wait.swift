import Foundation

extension Snapshotting {
  /// Wraps a strategy so that it waits before taking its snapshot.
  ///
  /// Useful when the value settles over time (an animation, a debounced render):
  ///
  /// ```swift
  /// assertSnapshot(of: renderer, as: .wait(for: 0.5, on: .description))
  /// ```
  ///
  /// The wait happens on a background queue, so it neither blocks nor needs the main thread. Keep
  /// the assertion's `timeout` longer than `duration`.
  ///
  /// - Parameters:
  ///   - duration: Seconds to wait before snapshotting.
  ///   - strategy: The strategy that takes the snapshot afterwards.
  public static func wait(for duration: TimeInterval, on strategy: Self) -> Self {
    strategy.asyncPullback { value in
      Async { callback in
        let pending = UncheckedSendable((value, callback))
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, duration)) {
          pending.value.1(pending.value.0)
        }
      }
    }
  }

  /// The spelling of ``wait(for:on:)`` used in the higher-order strategies article.
  public static func waiting(for duration: TimeInterval, on strategy: Self) -> Self {
    wait(for: duration, on: strategy)
  }
}
