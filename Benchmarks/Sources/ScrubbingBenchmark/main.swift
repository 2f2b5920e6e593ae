// The scrubbing and redaction benchmark: what `.json.scrubbing(.uuids, .iso8601Dates)` and
// `.json(redacting:)` cost next to producing the same JSON text with `.json`, at about 1 MB and
// 10 MB in one run, and the same two replacements done with Swift `Regex` for reference.
//
// Usage:
//   ScrubbingBenchmark [RUNS_1MB RUNS_10MB REGEX_RUNS_1MB REGEX_RUNS_10MB]
//       prints a Markdown table of medians (defaults 21 7 5 3; a Regex count of 0 skips that row
//       at that size)

import Foundation
import SnapshotTesting

#if canImport(Glibc)
  import Glibc
#endif

/// One order of an API response: identifiers, ISO 8601 timestamps (strings, as an API sends
/// them), numbers, nested objects and arrays.
struct Order: Encodable {
  struct Customer: Encodable {
    var id: UUID
    var name: String
    var email: String
    var createdAt: String
  }
  struct Line: Encodable {
    var sku: String
    var quantity: Int
    var unitPrice: Double
  }
  struct Address: Encodable {
    var street: String
    var city: String
    var postcode: String
    var country: String
  }
  var id: UUID
  var createdAt: String
  var updatedAt: String
  var status: String
  var total: Double
  var customer: Customer
  var lines: [Line]
  var shippingAddress: Address
  var tags: [String]
}

/// A deterministic UUID for `index`, so that every run encodes the same text.
func uuid(_ index: Int, salt: UInt8) -> UUID {
  var bytes = [UInt8](repeating: salt, count: 16)
  var value = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15
  for position in 0..<8 {
    bytes[8 + position] = UInt8(truncatingIfNeeded: value)
    value >>= 8
  }
  bytes[6] = 0x40 | (bytes[6] & 0x0F)
  bytes[8] = 0x80 | (bytes[8] & 0x3F)
  return UUID(
    uuid: (
      bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
      bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
    ))
}

/// An ISO 8601 timestamp in 2024, with milliseconds, `seconds` after the year's start.
func timestamp(_ seconds: Int) -> String {
  let day = seconds / 86_400 % 360
  let time = seconds % 86_400
  return String(
    format: "2024-%02d-%02dT%02d:%02d:%02d.%03dZ", day / 30 + 1, day % 30 + 1, time / 3600,
    time / 60 % 60, time % 60, seconds % 1000)
}

/// `count` orders; three orders share each customer, so UUIDs and dates repeat as in real data.
func orders(_ count: Int) -> [Order] {
  let cities = ["Lyon", "Oslo", "Quito", "Osaka", "Perth"]
  let statuses = ["pending", "paid", "shipped", "delivered", "refunded"]
  return (0..<count).map { (index: Int) -> Order in
    let lines = (0..<(1 + index % 3)).map { (line: Int) -> Order.Line in
      Order.Line(
        sku: "SKU-\(10_000 + (index * 7 + line) % 5_000)",
        quantity: 1 + (index + line) % 4,
        unitPrice: Double((index * 37 + line * 11) % 10_000) / 100
      )
    }
    return Order(
      id: uuid(index, salt: 0x1A),
      createdAt: timestamp(index * 613),
      updatedAt: timestamp(index * 613 + 3_600 + index % 977),
      status: statuses[index % statuses.count],
      total: lines.reduce(0.0) { (sum: Double, line) in sum + Double(line.quantity) * line.unitPrice },
      customer: Order.Customer(
        id: uuid(index / 3, salt: 0xC5),
        name: "Customer \(index / 3)",
        email: "customer\(index / 3)@example.com",
        createdAt: timestamp(index / 3 * 1_931)
      ),
      lines: lines,
      shippingAddress: Order.Address(
        street: "\(index % 97 + 1) Main Street",
        city: cities[index % cities.count],
        postcode: String(10_000 + index % 89_999),
        country: "NO"
      ),
      tags: index % 2 == 0 ? ["gift", "express"] : ["standard"]
    )
  }
}

/// The text a strategy produces for `value`, through its public `snapshot(value).run`, as the
/// assertion engine takes it.
func text<Value>(of value: Value, as strategy: Snapshotting<Value, String>) -> String {
  var result = ""
  strategy.snapshot(value).run { result = $0 }
  return result
}

let json = Snapshotting<[Order], String>.json
let scrubbed = Snapshotting<[Order], String>.json.scrubbing(.uuids, .iso8601Dates)
let selectors = ["[*].id", "**.createdAt"]
let redacted = Snapshotting<[Order], String>.json(redacting: selectors)

let uuidRegex = #/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/#
let dateRegex =
  #/\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?/#

/// (c): the two built-in scrubbers on a finished text, as the scrubbing pass runs them.
func scrubAlone(_ text: String) -> String {
  try! Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(text))
}

/// (e): the same two replacements with Swift `Regex` (unnumbered: `UUID`, `DATE`).
@MainActor func regexAlone(_ text: String) -> String {
  text.replacing(uuidRegex, with: "UUID").replacing(dateRegex, with: "DATE")
}

/// The JSON validity check the scrubbing pass makes on a scrubbed `.json` text.
func parses(_ text: String) -> Bool {
  (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil
}

func occurrences(of needle: String, in text: String) -> Int {
  text.components(separatedBy: needle).count - 1
}

func milliseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
}

/// This thread's CPU time in milliseconds: unlike the wall clock, it does not count the time
/// other processes on a shared machine held the core.
func threadCPUMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func medianOf(_ samples: [Double]) -> Double {
  let sorted = samples.sorted()
  return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
}

/// What one size measured: the text's size and each case's milliseconds, round by round.
struct SizeResult {
  var bytes: Int
  var orders: Int
  var wall: [String: [Double]] = [:]
  var cpu: [String: [Double]] = [:]

  /// The median wall time of a case.
  func median(_ name: String) -> Double? { wall[name].map(medianOf) }
  func medianCPU(_ name: String) -> Double? { cpu[name].map(medianOf) }

  /// The median, over rounds, of a case's wall time minus `base`'s in the same round.
  func medianExcess(_ name: String, over base: String) -> Double? {
    guard let cases = wall[name], let bases = wall[base], cases.count == bases.count else {
      return nil
    }
    return medianOf(zip(cases, bases).map { $0 - $1 })
  }
}

/// Builds orders whose `.json` text is about `bytes` long, checks every case's output once (so
/// that a case which failed, and so did less work, cannot pass), then times the cases in rounds
/// that alternate them, so that a change in the machine's load hits all of them alike.
@MainActor func measure(bytes: Int, runs: Int, regexRuns: Int) throws -> SizeResult {
  let sampleCount = 300
  let sampleBytes = text(of: orders(sampleCount), as: json).utf8.count
  let value = orders(bytes * sampleCount / sampleBytes)
  let jsonText = text(of: value, as: json)
  var result = SizeResult(bytes: jsonText.utf8.count, orders: value.count)

  let scrubbedText = text(of: value, as: scrubbed)
  let uuidCount = occurrences(of: "\"UUID_", in: scrubbedText)
  let dateCount = occurrences(of: "\"DATE_", in: scrubbedText)
  // Every order has 2 UUIDs (its own, its customer's) and 3 dates.
  guard uuidCount == 2 * value.count, dateCount == 3 * value.count,
    scrubbedText.contains("\"UUID_1\""), scrubbedText.contains("\"DATE_1\""),
    scrubAlone(jsonText) == scrubbedText, parses(scrubbedText)
  else {
    throw BenchmarkError(description: "scrubbing did not scrub: \(scrubbedText.prefix(400))")
  }
  let redactedText = text(of: value, as: redacted)
  guard occurrences(of: "\"[redacted string]\"", in: redactedText) == 3 * value.count else {
    throw BenchmarkError(description: "redaction failed: \(redactedText.prefix(400))")
  }

  let cases: [(String, () -> Any)] = [
    ("json", { text(of: value, as: json) }),
    ("scrubbed", { text(of: value, as: scrubbed) }),
    ("scrub", { scrubAlone(jsonText) }),
    ("uuids", { try! Scrubber.uuids.scrub(jsonText) }),
    ("dates", { try! Scrubber.iso8601Dates.scrub(jsonText) }),
    ("parse", { parses(scrubbedText) }),
    ("redacted", { text(of: value, as: redacted) }),
  ]
  let clock = ContinuousClock()
  func time(_ name: String, _ body: () -> Any) {
    let start = clock.now
    let cpuStart = threadCPUMilliseconds()
    let output = body()
    let cpu = threadCPUMilliseconds() - cpuStart
    let wall = milliseconds(start.duration(to: clock.now))
    withExtendedLifetime(output) {}
    result.cpu[name, default: []].append(cpu)
    result.wall[name, default: []].append(wall)
  }
  for _ in 0..<runs {
    for (name, body) in cases { time(name, body) }
  }
  if regexRuns > 0 {
    let regexText = regexAlone(jsonText)
    guard occurrences(of: "\"UUID\"", in: regexText) == uuidCount,
      occurrences(of: "\"DATE\"", in: regexText) == dateCount
    else { throw BenchmarkError(description: "Regex did not scrub: \(regexText.prefix(400))") }
    for _ in 0..<regexRuns { time("regex") { regexAlone(jsonText) } }
  }
  return result
}

func format(_ value: Double?, digits: Int = 1) -> String {
  guard let value, value.isFinite else { return "—" }
  return String(format: value >= 100 ? "%.0f" : "%.\(digits)f", value)
}

func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
  guard let numerator, let denominator, numerator.isFinite, denominator > 0 else { return "—" }
  let value = numerator / denominator
  return String(format: value >= 10 ? "%.1f×" : "%.2f×", value)
}

@MainActor func main() throws {
  let arguments = CommandLine.arguments.dropFirst().map { Int($0) }
  guard arguments.count == 0 || arguments.count == 4, !arguments.contains(nil) else {
    FileHandle.standardError.write(
      Data("usage: ScrubbingBenchmark [RUNS_1MB RUNS_10MB REGEX_RUNS_1MB REGEX_RUNS_10MB]\n".utf8))
    exit(2)
  }
  let counts = arguments.isEmpty ? [21, 7, 5, 3] : arguments.map { $0! }
  let small = try measure(bytes: 1_000_000, runs: counts[0], regexRuns: counts[2])
  let large = try measure(bytes: 10_000_000, runs: counts[1], regexRuns: counts[3])

  /// A row's milliseconds at one size; "adds" rows are the median of differences within rounds.
  func milliseconds(_ row: String, _ size: SizeResult) -> Double? {
    switch row {
    case "scrubbed adds": return size.medianExcess("scrubbed", over: "json")
    case "redacted adds": return size.medianExcess("redacted", over: "json")
    default: return size.median(row)
    }
  }
  let rows: [(String, String)] = [
    ("json", "(a) `.json`: encode the orders"),
    ("scrubbed", "(b) `.json.scrubbing(.uuids, .iso8601Dates)`, end to end"),
    ("scrubbed adds", "(b) − (a): what scrubbing adds"),
    ("scrub", "(c) `.uuids` then `.iso8601Dates` on the text (`Scrubber.scrub`)"),
    ("uuids", "  `.uuids` alone"),
    ("dates", "  `.iso8601Dates` alone"),
    ("parse", "  for scale: parsing the scrubbed text (`JSONSerialization`)"),
    ("redacted", "(d) `.json(redacting: [\"[*].id\", \"**.createdAt\"])`, end to end"),
    ("redacted adds", "(d) − (a): what redaction adds"),
    ("regex", "(e) Swift `Regex`: `text.replacing(uuid, …).replacing(date, …)`"),
  ]
  func megabytesPerSecond(_ ms: Double?, _ size: SizeResult) -> String {
    guard let ms, ms > 0 else { return "—" }
    return format(Double(size.bytes) / 1e6 / (ms / 1e3))
  }
  print("| measured | 1 MB: ms | MB/s | ÷ (a) | 10 MB: ms | MB/s | ÷ (a) | 10 MB ÷ 1 MB |")
  print("|---|---:|---:|---:|---:|---:|---:|---:|")
  print(
    "| JSON text: bytes (orders) | \(small.bytes) (\(small.orders)) | | | "
      + "\(large.bytes) (\(large.orders)) | | | \(ratio(Double(large.bytes), Double(small.bytes))) |")
  for (key, label) in rows {
    let a = milliseconds(key, small), b = milliseconds(key, large)
    let toJSON = key == "json" ? ("", "") : (ratio(a, small.median("json")), ratio(b, large.median("json")))
    print(
      "| \(label) | \(format(a, digits: 2)) | \(megabytesPerSecond(a, small)) | \(toJSON.0) | "
        + "\(format(b, digits: 2)) | \(megabytesPerSecond(b, large)) | \(toJSON.1) | \(ratio(b, a)) |")
  }
  print()
  let goal = (small.median("scrubbed") ?? .nan) / (small.median("json") ?? .nan)
  print(
    "Goal, (b) ÷ (a) ≤ 2× at 1 MB: \(ratio(small.median("scrubbed"), small.median("json"))) "
      + "by wall time, \(ratio(small.medianCPU("scrubbed"), small.medianCPU("json"))) by thread "
      + "CPU time (10 MB: \(ratio(large.median("scrubbed"), large.median("json"))) and "
      + "\(ratio(large.medianCPU("scrubbed"), large.medianCPU("json")))); "
      + (goal <= 2 ? "met." : "not met."))
  print()
  print(
    "Wall-time medians of \(counts[0]) runs at 1 MB and \(counts[1]) at 10 MB for (a)–(d), taken "
      + "in rounds that alternate them; \(counts[2]) and \(counts[3]) for (e). The \"adds\" rows "
      + "are the median of the differences within a round.")
}

do {
  try main()
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
