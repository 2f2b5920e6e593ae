
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
  // `compareRewriters` parses the source once to tell whether swift-syntax can read it.
  let (before, unreadable) = (tally.differences.count, tally.unreadableByTheOracle.count)
  compareRewriters(file: name, source: source, callsPerFile: callsPerFile, tally: &tally)
  guard tally.unreadableByTheOracle.count == unreadable else {
    tally.files -= 1
    tally.unreadableByTheOracle.removeLast()
    return .invalid
  }
  return .compared(differences: Array(tally.differences[before...]))
}
