import Foundation
import RunRecord

/// The settings of a scope beyond upstream's two (record mode and diff tool): the reference
/// variant, the scrubbers, the test case's counter and the naming of a parameterized test's
/// references. They travel inside ``SnapshotTestingConfiguration/current``, so every setting in
/// effect is one value in one task-local: upstream's own, which libraries built on it read.
///
/// ``resolveSettings(recordArgument:configuration:global:environment:)`` turns that value, the
/// deprecated globals and the environment into the settings an assertion uses. Adding a setting
/// means a field here, its line in that function and one parameter of the public spellings (see
/// ARCHITECTURE.md, "Where to add…").
package struct SnapshotScope: Sendable {
  /// The scope in effect in this task.
  package static var current: SnapshotScope {
    SnapshotTestingConfiguration.current?.scope ?? SnapshotScope()
  }

  /// The reference variant of the innermost scope that set one.
  var variant: SnapshotTestingConfiguration.Variant?
  /// Every scope's scrubbers, outermost scope's first.
  var scrubbers: [Scrubber] = []
  /// The counter the `.snapshots` trait made for the running test case.
  var counter: SnapshotCounter?
  /// How the innermost trait that chose one names a parameterized test's references.
  var naming: SnapshotTestingConfiguration.Naming?
}

extension SnapshotTestingConfiguration {
  /// The configuration of a new scope inside the current one: what it chooses, else what the
  /// enclosing scope chose. As upstream, the record mode and diff tool of ``current`` always hold
  /// what is in effect; the ones nobody chose are marked as shown from outside the scopes, so
  /// that resolution looks there again (a global set later inside the scope applies, and an
  /// unconfigured record mode stays unconfigured).
  static func entering(
    record: Record? = nil,
    diffTool: DiffTool? = nil,
    variant: Variant? = nil,
    scrubbing scrubbers: [Scrubber]? = nil,
    naming: Naming? = nil
  ) -> Self {
    let enclosing = current
    var inner = Self(
      record: record ?? enclosing?.record?.chosen ?? shownFromOutside(resolveSettings().record),
      diffTool: diffTool ?? enclosing?.diffTool?.chosen ?? shownFromOutside(resolveSettings().diffTool)
    )
    if let variant { inner.scope.variant = variant }
    if let scrubbers { inner.scope.scrubbers += scrubbers }
    if let naming { inner.scope.naming = naming }
    return inner
  }

  private static func shownFromOutside(
    _ resolved: Result<ResolvedRecordMode, RecordModeError>
  ) -> Record {
    // An invalid environment value shows as `.missing`; the assertions themselves report it.
    var record = (try? resolved.get())?.mode ?? .missing
    record.origin = .copiedFromOutsideScopes
    return record
  }

  private static func shownFromOutside(_ diffTool: DiffTool) -> DiffTool {
    var diffTool = diffTool
    diffTool.isChosen = false
    return diffTool
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
/// engines and the getters libraries read (`_record`, `_diffTool`) call it; a pure function of
/// its inputs.
package func resolveSettings(
  recordArgument: SnapshotTestingConfiguration.Record? = nil,
  configuration: SnapshotTestingConfiguration? = .current,
  global: GlobalConfiguration = .shared,
  environment: RunEnvironment = .current
) -> SnapshotSettings {
  let scope = configuration?.scope ?? SnapshotScope()
  let record = Result { () throws(RecordModeError) in
    try resolveRecordMode(
      argument: recordArgument,
      scoped: configuration?.record,
      global: global.record,
      environment: environment
    )
  }
  let variant = Result { () throws(VariantNameError) in
    try resolveVariant(scoped: scope.variant, environment: environment)
  }
  return SnapshotSettings(
    record: record,
    diffTool: configuration?.diffTool?.chosen ?? global.diffTool ?? .default,
    variant: variant,
    scrubbers: scope.scrubbers,
    counter: scope.counter,
    naming: scope.naming ?? .standard
  )
}
