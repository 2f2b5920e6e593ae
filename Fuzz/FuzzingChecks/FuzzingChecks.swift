// What the harnesses of Fuzz/ share: stopping on a broken invariant, and holding each input to a
// bound of processor time and reporting the slowest, which `scripts/fuzz.sh --campaign` prints.

import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Stops with a message libFuzzer reports as a crash, saving the input.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

/// Prints the broken invariant and aborts, so that libFuzzer keeps the input as a crash.
public func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("invariant violated: \(message)\n".utf8))
  abort()
}

/// The processor time of the slowest input so far, in nanoseconds, and its size.
private let slowest = Mutex<(nanoseconds: Int64, size: Int)>((0, 0))
private let reportsAtExit = Mutex(false)

/// Runs `check` on one input of `size` bytes and fails when it takes more than `bound` of the
/// thread's processor time (not wall time, so that other work on the machine does not count).
/// The slowest input is printed when the process exits, as `slowest input: N ms (M bytes)`.
public func withinTimeBound(
  _ bound: Duration,
  size: Int,
  _ check: () -> Void
) -> Int32 {
  let first = reportsAtExit.withLock { registered in
    defer { registered = true }
    return !registered
  }
  if first {
    atexit {
      let (nanoseconds, size) = slowest.withLock { $0 }
      let milliseconds = Double(nanoseconds) / 1e6
      FileHandle.standardError.write(
        Data("slowest input: \(String(format: "%.1f", milliseconds)) ms (\(size) bytes)\n".utf8)
      )
    }
  }
  let start = threadTime()
  check()
  let elapsed = threadTime() - start
  slowest.withLock { if elapsed > $0.nanoseconds { $0 = (elapsed, size) } }
  let (seconds, attoseconds) = bound.components
  let limit = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  require(
    elapsed <= limit,
    "an input of \(size) bytes took \(elapsed / 1_000_000) ms of processor time, more than "
      + "the bound of \(limit / 1_000_000) ms"
  )
  return 0
}

/// The calling thread's processor time, in nanoseconds.
private func threadTime() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
