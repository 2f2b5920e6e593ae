import Foundation
import InlineDifferential
import Testing

/// The package's scanner-based rewriter against the swift-syntax rewriter it replaced, on every
/// `.swift` file under the folders of `DIFFERENTIAL_CORPUS` (colon-separated; the package's own
/// `Tests` by default). At up to `DIFFERENTIAL_CALLS_PER_FILE` call sites of each file (spread
/// evenly; 16 by default) it writes and removes a snapshot through three descriptors, then writes
/// every site of the file in one pass, and compares the two results byte for byte.
///
/// A difference, or a text written where the oracle refused, fails the test. A refusal where the
/// oracle wrote is counted and listed, not failed: the scanner refuses what it cannot place with
/// certainty (see the Inline Snapshots article).
@Suite struct DifferentialInlineTests {
  @Test func theScannerWritesWhatSwiftSyntaxWrites() throws {
    let callsPerFile = environmentNumber("DIFFERENTIAL_CALLS_PER_FILE") ?? 16
    var tally = DifferentialTally()
    for file in corpusFiles() {
      guard let source = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
      compareRewriters(file: file, source: source, callsPerFile: callsPerFile, tally: &tally)
    }
    report("differential", tally)
    #expect(tally.files > 0)
    #expect(tally.differences.isEmpty, "\(tally.differences.count) differences")
  }

  /// Mutated valid Swift: `DIFFERENTIAL_MUTANTS` mutants (150 by default), each one to three
  /// `SourceMutator` edits of a corpus file (files taken in turn, the seed is the mutant's
  /// number), compared at two call sites wherever swift-syntax parses the mutant without
  /// errors. The libFuzzer harness `FuzzInlineDifferential` runs the same check on mutants it
  /// makes itself (`scripts/fuzz-differential.sh`).
  @Test func mutatedSourcesGetTheOraclesAnswer() throws {
    let mutants = environmentNumber("DIFFERENTIAL_MUTANTS") ?? 150
    let sources = corpusFiles().compactMap { file in
      (try? String(contentsOfFile: file, encoding: .utf8)).map { (file, $0) }
    }
    try #require(!sources.isEmpty)
    var tally = DifferentialTally()
    var invalid = 0
    for number in 0..<mutants {
      let (file, source) = sources[(number &* 7919) % sources.count]
      var mutator = SourceMutator(seed: UInt64(number))
      let mutant = mutator.mutate(source, count: 1 + number % 3)
      let name = "\(file) (mutant \(number))"
      if checkMutant(mutant, name: name, callsPerFile: 2, tally: &tally) == .invalid {
        invalid += 1
      }
    }
    report("mutants (\(mutants - invalid) valid of \(mutants))", tally)
    // The mutator's edits must mostly stay valid Swift, or this test compares nothing.
    #expect(mutants - invalid >= mutants / 3, "only \(mutants - invalid) valid mutants")
    #expect(tally.differences.isEmpty, "\(tally.differences.count) differences")
  }

  /// An edit that cannot be valid Swift is not compared; one that is, is.
  @Test func onlyValidMutantsAreCompared() {
    var tally = DifferentialTally()
    let valid = "func f() {\n  assertInlineSnapshot(of: 1, as: .dump) {\n    \"1\"\n  }\n}\n"
    #expect(checkMutant("func f( {", name: "broken", callsPerFile: 2, tally: &tally) == .invalid)
    #expect(tally.comparisons == 0)
    #expect(checkMutant(valid, name: "valid", callsPerFile: 2, tally: &tally) == .compared(differences: []))
    #expect(tally.identicalEdits > 0)
  }

  /// The same seed gives the same mutant; another seed, another one.
  @Test func aSeedNamesAMutant() {
    let source = (0..<40).map { "let value\($0) = f(\($0)) { $0 }" }.joined(separator: "\n")
    var first = SourceMutator(seed: 42)
    var again = SourceMutator(seed: 42)
    var other = SourceMutator(seed: 43)
    let mutant = first.mutate(source, count: 3)
    #expect(mutant == again.mutate(source, count: 3))
    #expect(mutant != source)
    #expect(mutant != other.mutate(source, count: 3))
  }
}

private func environmentNumber(_ name: String) -> Int? {
  ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
}

private func corpusFiles() -> [String] {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Tests").standardizedFileURL.path
  let folders = (ProcessInfo.processInfo.environment["DIFFERENTIAL_CORPUS"] ?? root)
    .split(separator: ":").map(String.init)
  return folders.flatMap(swiftFiles(under:))
}

private func report(_ title: String, _ tally: DifferentialTally) {
  print("\(title): \(tally.summary)")
  for line in tally.refusals.prefix(20) { print("refused (oracle wrote): \(line)") }
  for line in tally.differences.prefix(20) { print("DIFFERENCE: \(line)") }
  for file in tally.unreadableByTheOracle.prefix(20) {
    print("not compared (swift-syntax cannot read it): \(file)")
  }
}
