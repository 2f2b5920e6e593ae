/// Runs `operation` with a snapshot configuration; assertions inside it use this record mode and
/// diff tool unless they pass their own.
///
/// Scopes nest: an inner scope overrides only what it sets.
///
/// ```swift
/// withSnapshotTesting(record: .failed, diffTool: "meld") {
///   assertSnapshot(of: user, as: .json)
/// }
/// ```
///
/// - Parameters:
///   - record: The record mode, or `nil` to keep the enclosing one.
///   - diffTool: The diff tool, or `nil` to keep the enclosing one.
///   - operation: The work to run.
/// - Returns: What `operation` returns.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  operation: () throws -> R
) rethrows -> R {
  try SnapshotTestingConfiguration.$current.withValue(
    .merging(record: record, diffTool: diffTool),
    operation: operation
  )
}

/// Runs the asynchronous `operation` with a snapshot configuration; see
/// ``withSnapshotTesting(record:diffTool:operation:)-(_,_,()->R)``.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  operation: () async throws -> R
) async rethrows -> R {
  try await SnapshotTestingConfiguration.$current.withValue(
    .merging(record: record, diffTool: diffTool),
    operation: operation
  )
}

extension SnapshotTestingConfiguration {
  /// The current configuration with the given fields overridden.
  static func merging(record: Record?, diffTool: DiffTool?) -> Self {
    let enclosing = current
    return Self(
      record: record ?? enclosing?.record,
      diffTool: diffTool ?? enclosing?.diffTool
    )
  }
}
