import Foundation
import RunRecord

/// The record mode an assertion runs with, and whether anyone chose it.
package struct ResolvedRecordMode: Equatable {
  package var mode: SnapshotTestingConfiguration.Record
  /// `false` when no argument, scope, global or environment variable set a mode, so the default
  /// applies; on CI that default does not write missing references.
  package var isConfigured: Bool
  /// Whether a missing reference may be written to disk.
  package var writesMissingReferences: Bool
}

/// Why the record mode could not be resolved.
package struct RecordModeError: Error, CustomStringConvertible {
  var value: String
  package var description: String {
    """
    SNAPSHOT_TESTING_RECORD is set to "\(value)", which is not a record mode. Use one of: all, \
    failed, missing, never.
    """
  }
}

/// Resolves the record mode, highest precedence first: the assertion's `record:` argument, the
/// innermost `withSnapshotTesting` scope or `.snapshots` trait that chose a mode, the deprecated
/// globals, the `SNAPSHOT_TESTING_RECORD` environment variable, then `.missing`.
///
/// On CI (a non-empty `CI` variable other than `false`/`0`) and with no mode configured anywhere,
/// missing references are not written: a retried CI job must not pass on a reference it just
/// recorded.
///
/// A pure function of its inputs, so the precedence can be tested without touching the process.
package func resolveRecordMode(
  argument: SnapshotTestingConfiguration.Record?,
  scoped: SnapshotTestingConfiguration.Record?,
  global: SnapshotTestingConfiguration.Record?,
  environment: RunEnvironment
) throws(RecordModeError) -> ResolvedRecordMode {
  // `withSnapshotTesting` fills every scope's mode in; one it copied from outside the scopes was
  // not chosen there, so the globals and the environment are asked again instead. The same holds
  // for an argument that forwards `current.record`, as libraries built on assertions do.
  if let chosen = argument?.chosen ?? scoped?.chosen ?? global {
    return ResolvedRecordMode(mode: chosen, isConfigured: true, writesMissingReferences: true)
  }
  if let raw = environment[.record] {
    guard let mode = SnapshotTestingConfiguration.Record(rawValue: raw) else {
      throw RecordModeError(value: raw)
    }
    return ResolvedRecordMode(mode: mode, isConfigured: true, writesMissingReferences: true)
  }
  return ResolvedRecordMode(
    mode: .missing,
    isConfigured: false,
    writesMissingReferences: !environment.isContinuousIntegration
  )
}
