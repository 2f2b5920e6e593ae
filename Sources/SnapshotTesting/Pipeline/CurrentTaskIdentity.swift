/// The Swift runtime's unique, increasing number for a task. Exported by the concurrency runtime
/// on every platform (debuggers and tracing use it), but not declared in a public module.
@_silgen_name("swift_task_getJobTaskId")
private func _taskIdentifier(_ task: UnsafeRawPointer) -> UInt64

/// A number that identifies the running task for the whole process's life, or `nil` outside a
/// task. Unlike the task's address it is never reused, so a repeated test never continues an
/// earlier repetition's snapshot counter.
func currentTaskIdentity() -> UInt64? {
  withUnsafeCurrentTask { task in
    guard let task else { return nil }
    return _taskIdentifier(unsafeBitCast(task, to: UnsafeRawPointer.self))
  }
}
