import Dispatch

/// Where the web snapshots' asynchronous work runs: a queue of its own, off Swift's cooperative
/// thread pool.
///
/// The assertion waits for an asynchronous snapshot by blocking its thread. Swift Testing runs
/// tests on the cooperative pool, which has one thread per core, so a few parallel web
/// assertions can block every thread of it; work scheduled there would then never run. Jobs on
/// this queue are short (a message built or parsed, a screenshot decoded); the waiting is done by
/// the browser. The package's actors run here too (it is serial), so that a caller on the
/// starved pool can never hold one of them up.
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): a custom executor runs each job
/// as an `UnownedJob` with unowned references to itself, as Swift's executor API requires.
final class WebExecutor: TaskExecutor, SerialExecutor, @unchecked Sendable {
  static let shared = WebExecutor()

  private let queue = DispatchQueue(label: "snapshot-testing.web")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let serial = asUnownedSerialExecutor()
    let task = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}

/// Starts `operation` as an unstructured task on ``WebExecutor``, inheriting task-local values.
@discardableResult
func startOnWebExecutor<Success: Sendable>(
  _ operation: sending @escaping @isolated(any) () async -> Success
) -> Task<Success, Never> {
  Task(executorPreference: WebExecutor.shared, operation: operation)
}
