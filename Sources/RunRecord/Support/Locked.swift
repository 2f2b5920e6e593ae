import Foundation

/// A value that threads share, read and changed only under its lock.
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 and the package still builds for
/// macOS 10.15, so the lock is Foundation's; the value is reachable only inside ``withLock(_:)``.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, which it may change, under the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}
