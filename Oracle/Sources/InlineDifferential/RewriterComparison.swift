import Foundation
import InlineSnapshotOracle

@testable import InlineSnapshotTesting

/// What comparing the package's scanner-based rewriter with the swift-syntax oracle found.
///
/// A difference, or a text written where the oracle refused, is a failure. A refusal where the
/// oracle wrote is counted and listed, not failed: the scanner refuses what it cannot place with
/// certainty (see the Inline Snapshots article).
public struct DifferentialTally: Sendable {
  public var files = 0
  public var sites = 0
  public var comparisons = 0
  public var identicalEdits = 0
  public var bothRefused = 0
  public var refusals: [String] = []
  public var differences: [String] = []
  /// Files swift-syntax finds errors in: the oracle refuses every edit of them, so there is
  /// nothing to compare (swift-syntax 603 rejects a few files of its own suite that the compiler
  /// accepts).
  public var unreadableByTheOracle: [String] = []

  public init() {}

  public var summary: String {
    """
    \(files) files, \(sites) call sites, \(comparisons) comparisons: \
    \(identicalEdits) identical edits, \(bothRefused) refused by both, \(refusals.count) refused \
    by the scanner only, \(differences.count) differences; \(unreadableByTheOracle.count) files \
    swift-syntax cannot read, not compared
    """
  }
}

/// The text written at each site: quotes, a backslash, an interpolation-like run and a `#`, so
/// that the raw delimiter and escapes are exercised.
private let writtenText = "first line\n  \"\"\" \\(x) \"# end\n\ttabbed"

private let descriptors: [(label: String, deprecated: [String], offset: Int)] = [
  ("matches", [], 0),
  ("expansion", ["diagnostics"], 1),
  ("matches", [], -1),
]

/// Writes and removes a snapshot through three descriptors at up to `callsPerFile` call sites of
/// `source` (spread evenly over the calls swift-syntax finds), then writes every site at once,
/// with both rewriters, and adds what it found to `tally`.
public func compareRewriters(
  file: String,
  source: String,
  callsPerFile: Int,
  tally: inout DifferentialTally
) {
  tally.files += 1
  if InlineSnapshotOracle.hasSyntaxErrors(source) {
    tally.unreadableByTheOracle.append(file)
    return
  }
  let positions = InlineSnapshotOracle.callPositions(in: source)
  let stride = max(1, positions.count / max(1, callsPerFile))
  let sample = Swift.stride(from: 0, to: positions.count, by: stride).prefix(callsPerFile)
    .map { positions[$0] }
  var batch: [OracleChange] = []
  for position in sample {
    tally.sites += 1
    for descriptor in descriptors {
      var change = OracleChange(
        line: position.line,
        column: position.column,
        trailingClosureLabel: descriptor.label,
        deprecatedTrailingClosureLabels: descriptor.deprecated,
        trailingClosureOffset: descriptor.offset,
        expected: nil,
        actual: writtenText
      )
      guard let current = InlineSnapshotOracle.currentText(for: change, in: source) else {
        continue
      }
      change.expected = current
      if descriptor.offset == 0 { batch.append(change) }
      let place = "\(file):\(position.line):\(position.column) \(descriptor)"
      check([change], in: source, place: place + " write", tally: &tally)
      if current != nil {
        change.actual = nil
        check([change], in: source, place: place + " remove", tally: &tally)
      }
    }
  }
  if batch.count > 1 {
    check(batch, in: source, place: "\(file) all \(batch.count) sites at once", tally: &tally)
  }
}

private func check(
  _ changes: [OracleChange],
  in source: String,
  place: String,
  tally: inout DifferentialTally
) {
  tally.comparisons += 1
  let oracleResult = InlineSnapshotOracle.rewrite(source, changes: changes)
  let oracle = try? oracleResult.get()
  let ours: String?
  let ourError: String?
  do {
    ours = try rewriteInlineSnapshots(
      in: source,
      recordings: changes.map {
        InlineSnapshotRecording(
          line: $0.line,
          column: $0.column,
          syntaxDescriptor: InlineSnapshotSyntaxDescriptor(
            deprecatedTrailingClosureLabels: $0.deprecatedTrailingClosureLabels,
            trailingClosureLabel: $0.trailingClosureLabel,
            trailingClosureOffset: $0.trailingClosureOffset
          ),
          expected: $0.expected,
          actual: $0.actual
        )
      }
    )
    ourError = nil
  } catch {
    ours = nil
    ourError = error.description
  }
  switch (oracle, ours) {
  case (nil, nil):
    tally.bothRefused += 1
  case (.some, nil):
    tally.refusals.append(place + " — " + (ourError ?? ""))
  case (nil, .some):
    var refusal = ""
    if case .failure(let error) = oracleResult { refusal = ": \(error)" }
    tally.differences.append("\(place): written, but the oracle refused\(refusal)")
  case (.some(let expected), .some(let actual)):
    if expected == actual {
      tally.identicalEdits += 1
    } else {
      tally.differences.append("\(place):\n\(firstDifference(expected, actual))")
    }
  }
}

/// The first differing line of two texts, both ways.
private func firstDifference(_ expected: String, _ actual: String) -> String {
  let left = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let right = actual.split(separator: "\n", omittingEmptySubsequences: false)
  for index in 0..<max(left.count, right.count) {
    let a = index < left.count ? String(left[index]) : "<end>"
    let b = index < right.count ? String(right[index]) : "<end>"
    if a != b { return "  line \(index + 1)\n  oracle:  \(a)\n  scanner: \(b)" }
  }
  return "  (same lines, different bytes)"
}

/// The `.swift` files under `folder`, sorted, build folders left out.
public func swiftFiles(under folder: String) -> [String] {
  guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
  return enumerator.compactMap { $0 as? String }
    .filter { $0.hasSuffix(".swift") && !$0.contains(".build") }
    .sorted()
    .map { folder + "/" + $0 }
}
