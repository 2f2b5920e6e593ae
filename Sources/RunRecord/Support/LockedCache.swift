import Foundation

/// A dictionary shared between threads, for answers that are slow to compute and never change.
package final class LockedCache<Key: Hashable & Sendable, Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Key: Value] = [:]

  package init() {}

  /// Every value cached so far.
  package var cachedValues: [Value] { lock.withLock { Array(values.values) } }

  /// The value cached for `key`, made and kept on first use. `make` runs under the lock, so it
  /// runs once per key even when threads race (a usage log must open one file, not two).
  package func value(for key: Key, make: () throws -> Value) rethrows -> Value {
    try lock.withLock {
      if let cached = values[key] { return cached }
      let made = try make()
      values[key] = made
      return made
    }
  }
}
