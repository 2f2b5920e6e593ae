import Dispatch

// Where strategies' asynchronous work runs: dispatch queues of their own, off Swift's cooperative
// thread pool.
//
// A synchronous assertion waits for an asynchronous snapshot by blocking its thread. Swift Testing
// runs tests on the cooperative pool, which has one thread per core, so a few parallel assertions
// (a page loading, a query running) can block every thread of it; work scheduled there would then
// never run, and each assertion would time out waiting for the others. A strategy that starts a
// task therefore starts it on one of these executors.
//
// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): a custom executor runs each job as
// an `UnownedJob` with unowned references to itself, and gives actors such a reference, as Swift's
// executor API requires.

/// Runs tasks on a concurrent dispatch queue: a job that blocks (a driver's synchronous call)
/// gets a thread of its own rather than holding the others up.
package final class QueueExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of strategies whose work may block (a database's statements).
  package static let strategies = QueueExecutor(label: "snapshot-testing.strategies")

  private let queue: DispatchQueue

  private init(label: String) {
    queue = DispatchQueue(label: label, attributes: .concurrent)
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}

/// Runs tasks, and the actors that name it as their executor, one job at a time on a serial
/// dispatch queue. Its jobs must be short (a message built or parsed); the waiting is done
/// elsewhere (by a browser).
package final class SerialQueueExecutor: TaskExecutor, SerialExecutor, @unchecked Sendable {
  /// The web snapshots' executor: their tasks, deadlines and actors.
  package static let web = SerialQueueExecutor(label: "snapshot-testing.web")

  private let queue: DispatchQueue

  private init(label: String) {
    queue = DispatchQueue(label: label)
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let serial = asUnownedSerialExecutor()
    let task = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
  }

  package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    unsafe UnownedSerialExecutor(ordinary: self)
  }

  /// This executor, for an actor's `unownedExecutor` to return. Safe to hand out: each executor is
  /// a `static let`, alive as long as the process, so the unowned reference never dangles.
  @safe package var unownedSerialExecutor: UnownedSerialExecutor {
    unsafe asUnownedSerialExecutor()
  }
}
