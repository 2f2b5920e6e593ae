/// The `snapshot-testing` tool's exit codes: a stable contract for CI scripts.
///
/// | code | meaning |
/// |---|---|
/// | 0 | done: nothing pending, every selected failure accepted or rejected, nothing to prune, report written |
/// | 1 | attention needed: `review` listed pending failures (or some were skipped), `prune` listed unreferenced files without `--delete`, `optimize --check` found PNG files that would shrink |
/// | 2 | usage error: unknown option, missing argument, conflicting options |
/// | 3 | refused: `prune` on a missing usage log, a run that did not run every test (or crashed), logs of different commits or of another checkout |
/// | 4 | no match: a filter selected no pending failure |
/// | 5 | failed: a file could not be read or written (or, for `optimize`, decoded); what succeeded is listed |
/// | 6 | unavailable: `report --serve` could not listen (its port is in use by another program) |
package enum ToolExitCode: Int32, Sendable, CaseIterable {
  case success = 0
  case pending = 1
  case usage = 2
  case refused = 3
  case noMatch = 4
  case failure = 5
  case unavailable = 6

  /// The table printed at the end of `--help`.
  package static let helpText = """
    EXIT CODES:
      0  done: nothing pending, failures accepted or rejected, nothing to
         prune, report written
      1  attention needed: review listed pending failures or some were
         skipped; prune found unreferenced files (without --delete);
         optimize --check found PNG files that would shrink
      2  usage error
      3  refused: prune was given no log, a run that did not run every
         test or crashed, logs of different commits, or a log from
         another checkout
      4  no pending failure matches the given filters
      5  a file could not be read or written, or optimize could not
         decode one (what succeeded is listed)
      6  report --serve could not listen: the port is in use
    """
}
