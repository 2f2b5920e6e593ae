import Foundation

#if os(Linux)
  import Synchronization
#endif

/// A value that threads or tasks share, read and changed only under its lock.
///
/// The lock is Swift's `Mutex` on Linux, where it needs no availability check (about a third of
/// `NSLock`'s time uncontended, measured at 7 ns against 20 ns a lock and unlock), and
/// Foundation's `NSLock` elsewhere: `Mutex` needs macOS 15 and the package builds for macOS
/// 10.15. The value is reachable only inside ``withLock(_:)``. `~Copyable`, as `Mutex` is: keep
/// it in a `let` of a class, an actor or a global.
package struct Locked<Value: Sendable>: ~Copyable, Sendable {
  #if os(Linux)
    @usableFromInline let mutex: Mutex<Value>
    /// Read just after each lock and written just before each unlock, so that the thread
    /// sanitizer sees one holder's accesses happen before the next one's: `Mutex` waits in the
    /// kernel when contended, where the sanitizer cannot look, and it would report a race that
    /// is not there. On x86-64 both are plain moves.
    @usableFromInline let handoff = Atomic<Int>(0)

    package init(_ value: sending Value) {
      mutex = Mutex(value)
    }

    /// Runs `body` with the value, which it may change, under the lock.
    @inlinable @inline(__always)
    package func withLock<Result: Sendable, Failure: Error>(
      _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      try mutex.withLock { (value) throws(Failure) -> Result in
        _ = handoff.load(ordering: .acquiring)
        defer { handoff.store(0, ordering: .releasing) }
        return try body(&value)
      }
    }
  #else
    @usableFromInline let box: Box

    @usableFromInline final class Box: @unchecked Sendable {
      @usableFromInline let lock = NSLock()
      @usableFromInline var value: Value
      init(_ value: Value) { self.value = value }
    }

    package init(_ value: sending Value) {
      box = Box(value)
    }

    /// Runs `body` with the value, which it may change, under the lock.
    @inlinable
    package func withLock<Result: Sendable, Failure: Error>(
      _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      box.lock.lock()
      defer { box.lock.unlock() }
      return try body(&box.value)
    }
  #endif
}
