import Foundation
import InlineSnapshotOracle

@testable import InlineSnapshotTesting

// Rewriting a 5,000-line test file with 200 inline snapshots: the package's scanner against the
// swift-syntax rewriter it replaced, alternated run by run, on the same text and the same 200
// changes (every snapshot's text replaced at once, as a test run that recorded them all does).
// Both are built the same way (`Benchmarks/rewrite-time.sh` builds in debug, the way a test
// process that rewrites its own file is built; RELEASE=1 in release). Prints Markdown.

let snapshots = 200
let linesPerTest = 25

/// A test file: 200 test functions of 25 lines, each with one inline snapshot among ordinary
/// statements, comments and string literals, so that the scanner has real Swift to walk.
func makeFile() -> (text: String, positions: [(line: Int, column: Int)]) {
  var lines = [
    "import InlineSnapshotTesting", "import XCTest", "", "final class BigTests: XCTestCase {",
  ]
  var positions: [(line: Int, column: Int)] = []
  for index in 0..<snapshots {
    lines.append("  // Test \(index): a few statements before the assertion.")
    lines.append("  func testNumber\(index)() throws {")
    lines.append("    let values = [\(index), \(index + 1), \(index + 2)].map { $0 * 2 }")
    lines.append("    let label = \"value \\(values.count) /* not a comment */\"")
    lines.append("    XCTAssertEqual(values.count, 3, \"three values\")")
    lines.append("    /* A block comment with a \"quote\" and a { brace */")
    // Where `#column` puts an assertion: at the parenthesis that opens its arguments.
    positions.append((lines.count + 1, 25))
    lines.append("    assertInlineSnapshot(of: label, as: .lines) {")
    lines.append("      \"\"\"")
    lines.append("      value \(index)")
    lines.append("      \"\"\"")
    lines.append("    }")
    while lines.count % linesPerTest != 3 { lines.append("    _ = values.reduce(0, +) // filler") }
    lines.append("  }")
  }
  lines.append("}")
  return (lines.joined(separator: "\n") + "\n", positions)
}

let (source, positions) = makeFile()
let changes = positions.enumerated().map { index, position in
  OracleChange(
    line: position.line, column: position.column, trailingClosureLabel: "matches",
    deprecatedTrailingClosureLabels: [], trailingClosureOffset: 0,
    expected: "value \(index)", actual: "value \(index)\nand a new line \(index)")
}
let recordings = changes.map {
  InlineSnapshotRecording(
    line: $0.line, column: $0.column,
    syntaxDescriptor: InlineSnapshotSyntaxDescriptor(
      deprecatedTrailingClosureLabels: [], trailingClosureLabel: "matches",
      trailingClosureOffset: 0),
    expected: $0.expected, actual: $0.actual)
}

func seconds(_ work: () throws -> String) rethrows -> (Double, String) {
  let start = DispatchTime.now().uptimeNanoseconds
  let result = try work()
  return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, result)
}

let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "") ?? 9
var ours: [Double] = []
var oracle: [Double] = []
for _ in 0..<rounds {
  let (a, ourText) = try seconds { try rewriteInlineSnapshots(in: source, recordings: recordings) }
  let (b, oracleText) = try seconds {
    try InlineSnapshotOracle.rewrite(source, changes: changes).get()
  }
  guard ourText == oracleText else {
    FileHandle.standardError.write(Data("error: the two rewriters wrote different texts\n".utf8))
    exit(1)
  }
  ours.append(a)
  oracle.append(b)
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let lineCount = source.split(separator: "\n", omittingEmptySubsequences: false).count - 1
print("| rewriter | median of \(rounds) (\(lineCount) lines, \(snapshots) snapshots) | ratio |")
print("|---|---:|---:|")
print(String(format: "| this package's scanner | %.1f ms | %.2f× |", median(ours) * 1000,
  median(ours) / median(oracle)))
print(
  String(format: "| swift-syntax rewriter (the oracle) | %.1f ms | 1× |", median(oracle) * 1000))
