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
  /// The configuration of a new scope: the given fields, else the enclosing scope's, else the
  /// ones in effect outside every scope. As upstream, `current` inside a scope always holds the
  /// effective record mode and diff tool, so libraries reading it need no fallback of their own.
  static func merging(record: Record?, diffTool: DiffTool?) -> Self {
    let enclosing = current
    return Self(
      record: record ?? enclosing?.record?.chosen ?? recordOutsideScopes(),
      diffTool: diffTool ?? enclosing?.diffTool ?? GlobalConfiguration.shared.diffTool ?? .default
    )
  }

  /// The record mode the globals, `SNAPSHOT_TESTING_RECORD` or the default give, marked as copied
  /// so that resolution does not mistake it for a mode a scope chose. An invalid environment
  /// value gives `.missing` here; the assertions themselves report it.
  private static func recordOutsideScopes() -> Record {
    let resolved = try? resolveRecordMode(
      argument: nil,
      scoped: nil,
      global: GlobalConfiguration.shared.record,
      environment: RunEnvironment.current
    )
    var record = resolved?.mode ?? .missing
    record.origin = .copiedFromOutsideScopes
    return record
  }
}

extension SnapshotTestingConfiguration.Record {
  /// This mode if a scope or user chose it, `nil` if it was copied from outside the scopes.
  var chosen: Self? { origin == .chosen ? self : nil }
}

/// Runs `operation` with scrubbers that clean every text snapshot taken inside it, and
/// optionally a record mode and diff tool.
///
/// Scopes nest: an inner scope's scrubbers run after the outer scope's. Scoped scrubbers run
/// before a strategy's own (`.scrubbing(...)`), on every assertion whose format is text,
/// inline snapshots included; images and `Data` are never scrubbed.
///
/// ```swift
/// withSnapshotTesting(scrubbing: [.uuids, .iso8601Dates]) {
///   assertSnapshot(of: user, as: .dump)   // ids and dates become UUID_1, DATE_1
/// }
/// ```
///
/// - Parameters:
///   - record: The record mode, or `nil` to keep the enclosing one.
///   - diffTool: The diff tool, or `nil` to keep the enclosing one.
///   - scrubbers: Scrubbers added to the enclosing scope's.
///   - operation: The work to run.
/// - Returns: What `operation` returns.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  scrubbing scrubbers: [Scrubber],
  operation: () throws -> R
) rethrows -> R {
  try ScopedScrubbers.adding(scrubbers) {
    try withSnapshotTesting(record: record, diffTool: diffTool, operation: operation)
  }
}

/// Runs the asynchronous `operation` with scrubbers in scope; see
/// ``withSnapshotTesting(record:diffTool:scrubbing:operation:)-(_,_,_,()->R)``.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  scrubbing scrubbers: [Scrubber],
  operation: () async throws -> R
) async rethrows -> R {
  try await ScopedScrubbers.adding(scrubbers) {
    try await withSnapshotTesting(record: record, diffTool: diffTool, operation: operation)
  }
}

/// Runs `operation` with a reference variant, and optionally a record mode and diff tool: every
/// file snapshot taken inside it is stored as `<test>.<counter or name>.<variant>.<ext>`.
///
/// Scopes nest: an inner scope's variant replaces the outer one's. A variant set here takes
/// precedence over `SNAPSHOT_TESTING_VARIANT`. Inline snapshots refuse a variant.
///
/// ```swift
/// withSnapshotTesting(variant: .operatingSystemAndArchitecture) {
///   assertSnapshot(of: chart, as: .image)   // testBars.1.linux-x86_64.png
/// }
/// ```
///
/// - Parameters:
///   - record: The record mode, or `nil` to keep the enclosing one.
///   - diffTool: The diff tool, or `nil` to keep the enclosing one.
///   - variant: The variant of the references written and compared inside the scope.
///   - operation: The work to run.
/// - Returns: What `operation` returns.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  variant: SnapshotTestingConfiguration.Variant,
  operation: () throws -> R
) rethrows -> R {
  try ScopedVariant.$current.withValue(variant) {
    try withSnapshotTesting(record: record, diffTool: diffTool, operation: operation)
  }
}

/// Runs the asynchronous `operation` with a reference variant; see
/// ``withSnapshotTesting(record:diffTool:variant:operation:)-(_,_,_,()->R)``.
public func withSnapshotTesting<R>(
  record: SnapshotTestingConfiguration.Record? = nil,
  diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
  variant: SnapshotTestingConfiguration.Variant,
  operation: () async throws -> R
) async rethrows -> R {
  try await ScopedVariant.$current.withValue(variant) {
    try await withSnapshotTesting(record: record, diffTool: diffTool, operation: operation)
  }
}
