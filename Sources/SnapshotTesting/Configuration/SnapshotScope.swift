import Foundation
import RunRecord

/// What `withSnapshotTesting` and the `.snapshots` trait set for a task and its child tasks: one
/// value in one task-local, each scope a copy of the enclosing one with its own choices on top.
///
/// It holds only what scopes chose; ``resolveSettings(recordArgument:scope:global:environment:)``
/// turns it, the deprecated globals and the environment into the settings an assertion uses.
/// Adding a setting means a field here, its line in that function and one parameter of the
/// public spellings (see ARCHITECTURE.md, "Where to add…").
package struct SnapshotScope: Sendable {
  /// The scope in effect in this task.
  @TaskLocal package static var current = SnapshotScope()

  /// Whether a `withSnapshotTesting` scope or a `.snapshots` trait encloses this task, as
  /// ``SnapshotTestingConfiguration/current`` tells (it is `nil` outside every scope).
  var isEntered = false
  /// The record mode the innermost scope that chose one chose.
  var record: SnapshotTestingConfiguration.Record?
  /// The diff tool the innermost scope that chose one chose.
  var diffTool: SnapshotTestingConfiguration.DiffTool?
  /// The reference variant of the innermost scope that set one.
  var variant: SnapshotTestingConfiguration.Variant?
  /// Every scope's scrubbers, outermost scope's first.
  var scrubbers: [Scrubber] = []
  /// The counter the `.snapshots` trait made for the running test case.
  var counter: SnapshotCounter?
  /// How the innermost trait that chose one names a parameterized test's references.
  var naming: SnapshotTestingConfiguration.Naming?

  /// This scope with an inner scope's choices on top: a `nil` keeps the enclosing value,
  /// scrubbers are added after the enclosing ones.
  func entering(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
    variant: SnapshotTestingConfiguration.Variant? = nil,
    scrubbing scrubbers: [Scrubber]? = nil,
    naming: SnapshotTestingConfiguration.Naming? = nil
  ) -> Self {
    var inner = self
    inner.isEntered = true
    if let record { inner.record = record }
    if let diffTool { inner.diffTool = diffTool }
    if let variant { inner.variant = variant }
    if let scrubbers { inner.scrubbers += scrubbers }
    if let naming { inner.naming = naming }
    return inner
  }
}

/// The settings one assertion uses, resolved once from its argument, the scope, the deprecated
/// globals and the environment. A setting that cannot be used (an invalid
/// `SNAPSHOT_TESTING_RECORD`, a variant unfit for a file name) is kept as its error, for the
/// engine to report as the assertion's failure.
package struct SnapshotSettings {
  package var record: Result<ResolvedRecordMode, RecordModeError>
  package var diffTool: SnapshotTestingConfiguration.DiffTool
  package var variant: Result<ResolvedVariant?, VariantNameError>
  /// The scrubbers every text snapshot goes through, outermost scope's first.
  package var scrubbers: [Scrubber]
  /// The running test case's counter from the `.snapshots` trait, if any.
  var counter: SnapshotCounter?
  /// How a parameterized test's references are named.
  var naming: SnapshotTestingConfiguration.Naming
}

/// Resolves every setting, highest precedence first: the assertion's argument, the innermost
/// scope that chose one, the deprecated globals, the environment, the default. Both assertion
/// engines and the getters libraries read (`_record`, `_diffTool`,
/// `SnapshotTestingConfiguration.current`) call it; a pure function of its inputs.
package func resolveSettings(
  recordArgument: SnapshotTestingConfiguration.Record? = nil,
  scope: SnapshotScope = .current,
  global: GlobalConfiguration = .shared,
  environment: RunEnvironment = .current
) -> SnapshotSettings {
  let record = Result { () throws(RecordModeError) in
    try resolveRecordMode(
      argument: recordArgument,
      scoped: scope.record,
      global: global.record,
      environment: environment
    )
  }
  let variant = Result { () throws(VariantNameError) in
    try resolveVariant(scoped: scope.variant, environment: environment)
  }
  return SnapshotSettings(
    record: record,
    diffTool: scope.diffTool ?? global.diffTool ?? .default,
    variant: variant,
    scrubbers: scope.scrubbers,
    counter: scope.counter,
    naming: scope.naming ?? .standard
  )
}
