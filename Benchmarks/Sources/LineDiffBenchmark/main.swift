// The line diff and assertion benchmarks. The same file is compiled against this package (here)
// and against upstream swift-snapshot-testing (Upstream/, through a symbolic link), so both run
// the very same code on the very same input files.
//
// Usage:
//   LineDiffBenchmark generate DIR       writes the input texts into DIR (see `generate`)
//   LineDiffBenchmark diff OLD NEW RUNS  prints the median milliseconds of one
//                                        `Diffing<String>.lines.diffV2(old, new)`
//   LineDiffBenchmark assert RUNS        prints the median milliseconds of one matching
//                                        `verifySnapshot(of:as: .lines)` (see `assertion`)

import Foundation
import SnapshotTesting

/// A record whose `dump` has many equal lines, like most snapshot texts.
struct Shipment {
  enum Status { case pending, shipped, delivered }
  var id: Int
  var status: Status
  var isExpress: Bool
  var weight: Double
  var tags: [String]
}

/// The lines of `dump` of an array of shipments, cut to exactly `count` lines.
func dumpLines(count: Int) -> [String] {
  let statuses: [Shipment.Status] = [.pending, .shipped, .delivered]
  let records = (0..<(count / 8 + 1)).map { (index: Int) -> Shipment in
    let tags: [String] = index % 2 == 0 ? ["fragile", "blue"] : ["red", "blue"]
    let weight = Double(index % 5) / 2
    return Shipment(
      id: index % 10, status: statuses[index % 3], isExpress: index % 4 == 0, weight: weight,
      tags: tags)
  }
  var text = ""
  dump(records, to: &text)
  return Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(count))
    .map(String.init)
}

/// Changes `changes` lines spread evenly over the text.
func changed(_ lines: [String], changes: Int) -> [String] {
  var result = lines
  let step = max(lines.count / max(changes, 1), 1)
  var index = step / 2
  var done = 0
  while done < changes, index < result.count {
    result[index] += " (changed)"
    index += step
    done += 1
  }
  return result
}

let sizes = [1_000, 5_000, 20_000, 50_000]

/// Writes `percent-N.{old,new}.txt` (1% of the N lines changed) and `fixed-N.{old,new}.txt`
/// (10 lines changed) for every size.
func generate(into directory: URL) throws {
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  for size in sizes {
    let old = dumpLines(count: size)
    for (series, changes) in [("percent", size / 100), ("fixed", 10)] {
      let new = changed(old, changes: changes)
      try Data(old.joined(separator: "\n").utf8)
        .write(to: directory.appendingPathComponent("\(series)-\(size).old.txt"))
      try Data(new.joined(separator: "\n").utf8)
        .write(to: directory.appendingPathComponent("\(series)-\(size).new.txt"))
    }
  }
}

/// Runs `body` `runs` times and returns the median duration in milliseconds.
func medianMilliseconds(runs: Int, _ body: () -> Void) -> Double {
  let clock = ContinuousClock()
  var samples: [Double] = []
  for _ in 0..<max(runs, 1) {
    let duration = clock.measure(body)
    let (seconds, attoseconds) = duration.components
    samples.append(Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
  }
  samples.sort()
  return samples[samples.count / 2]
}

func readText(_ path: String) throws -> String {
  String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
}

/// One matching `.lines` assertion: a 5,000-line text against its reference, pre-recorded in a
/// temporary snapshot directory, with `record: .never`.
func assertion(runs: Int) throws -> Double {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("snapshot-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let text = dumpLines(count: 5_000).joined(separator: "\n")
  // Both libraries store the reference as <testName>.<name>.<pathExtension>.
  try Data(text.utf8).write(to: directory.appendingPathComponent("benchmark.lines.txt"))
  var failures = 0
  let median = medianMilliseconds(runs: runs) {
    let failure = verifySnapshot(
      of: text, as: .lines, named: "lines", record: .never, snapshotDirectory: directory.path,
      testName: "benchmark")
    if let failure {
      failures += 1
      FileHandle.standardError.write(Data("unexpected failure: \(failure)\n".utf8))
    }
  }
  // TODO(lead's engine): add the matching `.dump` assertion here once `Snapshotting.dump` lands
  // in this package: `verifySnapshot(of: records, as: .dump, named: "dump", ...)` against a
  // pre-recorded `benchmark.dump.txt`, timed the same way.
  return failures == 0 ? median : .nan
}

func main() throws {
  let arguments = Array(CommandLine.arguments.dropFirst())
  switch arguments.first {
  case "generate" where arguments.count == 2:
    try generate(into: URL(fileURLWithPath: arguments[1]))
  case "diff" where arguments.count == 4:
    let old = try readText(arguments[1])
    let new = try readText(arguments[2])
    var message = ""
    let median = medianMilliseconds(runs: Int(arguments[3]) ?? 1) {
      message = Diffing<String>.lines.diffV2(old, new)?.0 ?? ""
    }
    let printedLines = message.utf8.lazy.filter { $0 == 0x0A }.count + 1
    FileHandle.standardError.write(Data("diff printed \(printedLines) lines\n".utf8))
    print(String(format: "%.3f", median))
  case "assert" where arguments.count == 2:
    print(String(format: "%.3f", try assertion(runs: Int(arguments[1]) ?? 1)))
  default:
    FileHandle.standardError.write(
      Data("usage: generate DIR | diff OLD NEW RUNS | assert RUNS\n".utf8))
    exit(2)
  }
}

do {
  try main()
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
