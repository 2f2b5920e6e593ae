import SnapshotTesting

/// Where the web snapshots' asynchronous work runs: a serial queue of its own, off Swift's
/// cooperative thread pool (see `SerialQueueExecutor`). The package's actors run there too, so
/// that a caller on a starved pool can never hold one of them up.
enum WebExecutor {
  static var shared: SerialQueueExecutor { .web }
}

/// Starts `operation` as an unstructured task on ``WebExecutor``, inheriting task-local values.
@discardableResult
func startOnWebExecutor<Success: Sendable>(
  _ operation: sending @escaping @isolated(any) () async -> Success
) -> Task<Success, Never> {
  Task(executorPreference: WebExecutor.shared, operation: operation)
}
