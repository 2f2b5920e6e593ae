import RunRecord

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
    SnapshotTestingConfiguration.entering(record: record, diffTool: diffTool),
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
    SnapshotTestingConfiguration.entering(record: record, diffTool: diffTool),
    operation: operation
  )
}

/// Runs `operation` with any of the snapshot settings a scope can choose: a record mode, a diff
/// tool, a reference variant and scrubbers. Each `nil` keeps the enclosing scope's choice.
///
/// Scopes nest: an inner scope overrides the record mode, diff tool and variant it sets, and its
/// scrubbers run after the outer scope's. Scoped scrubbers run before a strategy's own
/// (`.scrubbing(...)`) on every text snapshot, inline snapshots included; images and `Data` are
/// never scrubbed. A variant names every file snapshot's reference
/// `<test>.<counter or name>.<variant>.<ext>`, takes precedence over `SNAPSHOT_TESTING_VARIANT`,
/// and is refused by inline snapshots.
///
/// ```swift
/// withSnapshotTesting(variant: .operatingSystem, scrubbing: [.uuids, .iso8601Dates]) {
///   assertSnapshot(of: user, as: .dump)   // testUser.1.linux.txt, ids and dates scrubbed
/// }
/// ```
///
/// - Parameters:
///   - record: The record mode, or `nil` to keep the enclosing one.
///   - diffTool: The diff tool, or `nil` to keep the enclosing one.
///   - variant: The variant of the references written and compared inside the scope, or `nil`
///     to keep the enclosing one.
///   - scrubbers: Scrubbers added after the enclosing scope's, or `nil` for none.
///   - operation: The work to run.
/// - Returns: What `operation` returns.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  variant: SnapshotTestingConfiguration.Variant? = nil,
  scrubbing scrubbers: [Scrubber]? = nil,
  operation: () throws -> R
) rethrows -> R {
  try SnapshotTestingConfiguration.$current.withValue(
    SnapshotTestingConfiguration.entering(
      record: record, diffTool: diffTool, variant: variant, scrubbing: scrubbers),
    operation: operation
  )
}

/// Runs the asynchronous `operation` with any of the snapshot settings a scope can choose; see
/// ``withSnapshotTesting(record:diffTool:variant:scrubbing:operation:)-654sz``.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  variant: SnapshotTestingConfiguration.Variant? = nil,
  scrubbing scrubbers: [Scrubber]? = nil,
  operation: () async throws -> R
) async rethrows -> R {
  try await SnapshotTestingConfiguration.$current.withValue(
    SnapshotTestingConfiguration.entering(
      record: record, diffTool: diffTool, variant: variant, scrubbing: scrubbers),
    operation: operation
  )
}

/// Runs `operation` with scrubbers that clean every text snapshot taken inside it; the same as
/// ``withSnapshotTesting(record:diffTool:variant:scrubbing:operation:)-654sz``
/// without a variant.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  scrubbing scrubbers: [Scrubber],
  operation: () throws -> R
) rethrows -> R {
  try withSnapshotTesting(
    record: record, diffTool: diffTool, variant: nil, scrubbing: scrubbers, operation: operation)
}

/// Runs the asynchronous `operation` with scrubbers in scope; see
/// ``withSnapshotTesting(record:diffTool:variant:scrubbing:operation:)-3zvhf``.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  scrubbing scrubbers: [Scrubber],
  operation: () async throws -> R
) async rethrows -> R {
  try await withSnapshotTesting(
    record: record, diffTool: diffTool, variant: nil, scrubbing: scrubbers, operation: operation)
}

/// Runs `operation` with a reference variant; the same as
/// ``withSnapshotTesting(record:diffTool:variant:scrubbing:operation:)-654sz``
/// without scrubbers.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  variant: SnapshotTestingConfiguration.Variant,
  operation: () throws -> R
) rethrows -> R {
  try withSnapshotTesting(
    record: record, diffTool: diffTool, variant: variant, scrubbing: nil, operation: operation)
}

/// Runs the asynchronous `operation` with a reference variant; see
/// ``withSnapshotTesting(record:diffTool:variant:scrubbing:operation:)-3zvhf``.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  variant: SnapshotTestingConfiguration.Variant,
  operation: () async throws -> R
) async rethrows -> R {
  try await withSnapshotTesting(
    record: record, diffTool: diffTool, variant: variant, scrubbing: nil, operation: operation)
}

extension SnapshotTestingConfiguration.Record {
  /// This mode if a scope or user chose it, `nil` if ``SnapshotTestingConfiguration/current``
  /// showed it from outside the scopes.
  var chosen: Self? { origin == .chosen ? self : nil }
}
