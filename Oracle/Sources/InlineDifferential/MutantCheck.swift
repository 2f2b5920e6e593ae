import InlineSnapshotOracle

/// What became of one mutant of a source.
public enum MutantOutcome: Equatable, Sendable {
  /// swift-syntax finds errors in it: not valid Swift, so not compared.
  case invalid
  /// Compared at its call sites; the differences found, if any.
  case compared(differences: [String])
}

/// Compares the two rewriters on `source` when swift-syntax reads it without errors.
public func checkMutant(
  _ source: String,
  name: String,
  callsPerFile: Int,
  tally: inout DifferentialTally
) -> MutantOutcome {
  guard !InlineSnapshotOracle.hasSyntaxErrors(source) else { return .invalid }
  let before = tally.differences.count
  compareRewriters(file: name, source: source, callsPerFile: callsPerFile, tally: &tally)
  return .compared(differences: Array(tally.differences[before...]))
}
