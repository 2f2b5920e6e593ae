/// A number that tells the running task apart from every other task alive at the same time, or
/// `nil` outside a task.
///
/// It comes from `UnsafeCurrentTask`'s public `Hashable` conformance, which hashes the task's
/// address, so no runtime symbol outside the public API is bound. An address is reused once its
/// task ends. For the snapshot counters, keyed by test, test case and this identity, that matters
/// only when the same test case runs again on a new task placed where a finished one was: a
/// repetition, and Swift Testing's runner reuses the address almost every time. Such a run
/// continues the earlier counter (`test.4`, …) instead of starting at 1, so repeated runs need the
/// `.snapshots` trait, whose counter is bound to each test case's scope. Two tasks alive at once,
/// parallel tests and their cases, never share an identity (bar a 64-bit hash collision).
func currentTaskIdentity() -> Int? {
  withUnsafeCurrentTask { task in task?.hashValue }
}
