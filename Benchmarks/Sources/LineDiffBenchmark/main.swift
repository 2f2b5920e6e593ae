// The line diff and assertion benchmarks. The same file is compiled against this package (here)
// and against upstream swift-snapshot-testing (Upstream/, through a symbolic link), so both run
// the very same code on the very same input files.
//
// Usage:
//   LineDiffBenchmark generate DIR       writes the input texts into DIR (see `generate`)
//   LineDiffBenchmark diff OLD NEW RUNS  prints the median milliseconds of one
//                                        `Diffing<String>.lines.diffV2(old, new)`
//   LineDiffBenchmark assert CASE RUNS [COPY]
//                                        prints the median milliseconds of one matching
//                                        `verifySnapshot` (see `assertion`); CASE is lines-5000,
//                                        lines-20, dump-200 or dump-small; COPY receives the
//                                        recorded reference

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
      id: index % 10,
      status: statuses[index % 3],
      isExpress: index % 4 == 0,
      weight: weight,
      tags: tags
    )
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

/// Changes every `step`-th line, starting with the first when `step` is 1 and in the middle of
/// each stretch otherwise.
func changed(_ lines: [String], every step: Int) -> [String] {
  var result = lines
  for index in stride(from: step == 1 ? 0 : step / 2, to: result.count, by: step) {
    result[index] += " (changed)"
  }
  return result
}

/// `count` lines, each `x` or `y`, from a fixed seed: no two such texts share long stretches.
func coinFlipLines(count: Int, seed: UInt64) -> [String] {
  var state = seed
  return (0..<count).map { _ in
    // SplitMix64, so that the files are the same on every machine.
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return (z ^ (z >> 31)) & 1 == 0 ? "x" : "y"
  }
}

/// Writes `percent-N.{old,new}.txt` (1% of the N lines changed) and `fixed-N.{old,new}.txt`
/// (10 lines changed) for every size; `every-50000`, `half-50000` and `tenth-50000` (every line,
/// every 2nd and every 10th line of 50,000 changed); and `coins-200000` (two unrelated texts of
/// 200,000 random `x` or `y` lines).
func generate(into directory: URL) throws {
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  func write(_ name: String, old: [String], new: [String]) throws {
    try Data(old.joined(separator: "\n").utf8)
      .write(to: directory.appendingPathComponent("\(name).old.txt"))
    try Data(new.joined(separator: "\n").utf8)
      .write(to: directory.appendingPathComponent("\(name).new.txt"))
  }
  let dump = dumpLines(count: 50_000)
  for (series, step) in [("every", 1), ("half", 2), ("tenth", 10)] {
    try write("\(series)-50000", old: dump, new: changed(dump, every: step))
  }
  try write(
    "coins-200000",
    old: coinFlipLines(count: 200_000, seed: 1),
    new: coinFlipLines(count: 200_000, seed: 2)
  )
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

/// A nested record for the `.dump` assertions.
struct Customer {
  struct Address {
    var street: String
    var city: String
    var postcode: Int
  }
  var id: Int
  var name: String
  var address: Address
  var tags: [String]
  var status: Shipment.Status
  var balance: Double?
}

/// A small struct for the `.dump` assertion of a small value.
struct User {
  var id: Int
  var name: String
  var bio: String
}

func customers(count: Int) -> [Customer] {
  let statuses: [Shipment.Status] = [.pending, .shipped, .delivered]
  return (0..<count).map { index in
    Customer(
      id: index,
      name: "Customer \(index)",
      address: Customer.Address(
        street: "\(index % 97) Main Street",
        city: ["Lyon", "Oslo", "Quito"][index % 3],
        postcode: 10_000 + index
      ),
      tags: index % 2 == 0 ? ["vip", "newsletter"] : ["newsletter"],
      status: statuses[index % 3],
      balance: index % 4 == 0 ? nil : Double(index) / 4
    )
  }
}

let smallUser = User(id: 1, name: "Blobby", bio: "Blobbed around the world.")

/// `count` lines of `dumpLines`, without the module's name in type names, so that both builds
/// of this file assert the very same text.
func assertedText(lines count: Int) -> String {
  let module = String(reflecting: Shipment.self).dropLast("Shipment".count)
  return dumpLines(count: count).joined(separator: "\n")
    .replacingOccurrences(of: String(module), with: "")
}

/// The matching assertions measured, by name: `lines-5000`, `lines-20`, `dump-200`, `dump-small`.
let assertionCases = ["lines-5000", "lines-20", "dump-200", "dump-small"]

/// One call of `verifySnapshot(of:as:named:record:snapshotDirectory:testName:)` for `name`, with
/// the given record mode; returns its failure message.
func verify(_ name: String, record: SnapshotTestingConfiguration.Record, in directory: String)
  -> (() -> String?)?
{
  /// The call being measured, the same for every case but for its value and strategy.
  func call<Value>(_ value: Value, as strategy: Snapshotting<Value, String>, named snapshot: String)
    -> () -> String?
  {
    {
      verifySnapshot(
        of: value,
        as: strategy,
        named: snapshot,
        record: record,
        snapshotDirectory: directory,
        testName: "benchmark"
      )
    }
  }

  switch name {
  case "lines-5000":
    return call(assertedText(lines: 5_000), as: .lines, named: "lines")
  case "lines-20":
    return call(assertedText(lines: 20), as: .lines, named: "lines")
  case "dump-200":
    return call(customers(count: 200) as Any, as: .dump, named: "dump")
  case "dump-small":
    return call(smallUser as Any, as: .dump, named: "dump")
  default:
    return nil
  }
}

/// One matching assertion: the reference is first recorded through the public API
/// (`record: .all`) in a temporary snapshot directory, then `runs` calls with `record: .never`
/// are timed. Named snapshots, so nothing counts up between calls. Prints the median
/// milliseconds; with `keep`, copies the reference to that path (to compare both libraries').
func assertion(_ name: String, runs: Int, keep: String?) throws -> Double {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("snapshot-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  guard
    let record = verify(name, record: .all, in: directory.path),
    let match = verify(name, record: .never, in: directory.path)
  else {
    throw BenchmarkError(description: "unknown assertion \(name)")
  }
  guard record() != nil else {
    throw BenchmarkError(description: "recording \(name) did not report a recording")
  }
  if let keep {
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    guard files.count == 1 else { throw BenchmarkError(description: "references: \(files)") }
    try Data(contentsOf: directory.appendingPathComponent(files[0]))
      .write(to: URL(fileURLWithPath: keep))
  }
  var failures = 0
  let median = medianMilliseconds(runs: runs) {
    if let failure = match() {
      failures += 1
      FileHandle.standardError.write(Data("unexpected failure: \(failure)\n".utf8))
    }
  }
  return failures == 0 ? median : .nan
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
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
  case "assert" where arguments.count == 3 || arguments.count == 4:
    let median = try assertion(
      arguments[1],
      runs: Int(arguments[2]) ?? 1,
      keep: arguments.count == 4 ? arguments[3] : nil
    )
    print(String(format: "%.4f", median))
  default:
    FileHandle.standardError.write(
      Data(
        "usage: generate DIR | diff OLD NEW RUNS | assert (\(assertionCases.joined(separator: "|"))) RUNS [REFERENCE_COPY]\n"
          .utf8
      )
    )
    exit(2)
  }
}

do {
  try main()
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
