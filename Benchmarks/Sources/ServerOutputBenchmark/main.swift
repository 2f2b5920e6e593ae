// The server and command-line strategies against what they replace, in one run:
//
// - `.http` of a 1 MB JSON response next to `.json` of the same value (the body's parsed
//   Foundation object, and the `Encodable` value it was encoded from);
// - `.output` of a command that prints 10 MB next to reading the same command's output with
//   `Process` and a `Pipe` into `Data`;
// - `.terminal` of 1, 2 and 4 MB of coloured output, to show it is linear;
// - `.terminal` of 10,000 lines of progress bars (`\r ESC[K` redraws, cursor moves, wide
//   characters) next to `.output` of the same bytes: what drawing the screen costs.
// - `large`: `.http` of a 50 MB JSON response next to `.json` of the `Encodable` value and a
//   `JSONSerialization` round trip (parse, then print pretty with sorted keys), with the peak
//   memory each takes above what the process held before it (the resident size, sampled every
//   millisecond). Not in the default run: it takes minutes.
//
// Usage:
//   ServerOutputBenchmark [RUNS [http|output|terminal|large]]
//       prints Markdown tables of medians (default 9 runs), of every section but `large`, or of
//       the one named

import CommandSnapshotTesting
import Foundation
import HTTPSnapshotTesting
import HTTPTypes
import SnapshotTesting

#if canImport(Glibc)
  import Glibc
#endif

struct Invoice: Codable {
  struct Line: Codable {
    var sku: String
    var quantity: Int
    var unitPrice: Double
  }
  var id: Int
  var customer: String
  var email: String
  var status: String
  var lines: [Line]
  var notes: String
}

func invoices(_ count: Int) -> [Invoice] {
  (0..<count).map { index in
    Invoice(
      id: index,
      customer: "Customer \(index / 3)",
      email: "customer\(index / 3)@example.com",
      status: ["paid", "pending", "refunded"][index % 3],
      lines: (0..<(1 + index % 3)).map {
        Invoice.Line(sku: "SKU-\(10_000 + index * 7 + $0)", quantity: 1 + $0, unitPrice: 9.5)
      },
      notes: index % 5 == 0 ? "Deliver to the back door, \"please\"." : ""
    )
  }
}

/// Where a strategy's callback leaves its text.
final class TextBox: @unchecked Sendable { var text = "" }

/// The text a strategy produces, through its public `snapshot(value).run`, waiting for it: the
/// command strategies answer from the runner's own thread.
func text<Value>(of value: Value, as strategy: Snapshotting<Value, String>) -> String {
  let box = TextBox()
  let done = DispatchSemaphore(value: 0)
  strategy.snapshot(value).run {
    box.text = $0
    done.signal()
  }
  done.wait()
  return box.text
}

/// Milliseconds on a clock: the wall clock, or this thread's CPU time, which does not count the
/// time other processes on a shared machine held the core (but neither a child process's work).
func now(_ clock: clockid_t) -> Double {
  var time = timespec()
  clock_gettime(clock, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func median(_ samples: [Double]) -> Double {
  let sorted = samples.sorted()
  return sorted[sorted.count / 2]
}

/// Times the cases in rounds that alternate them, so that a change in the machine's load hits
/// all of them alike; the median of each, in milliseconds.
func measure(runs: Int, clock: clockid_t, _ cases: [(String, () -> Int)]) -> [String: Double] {
  var samples: [String: [Double]] = [:]
  for (_, body) in cases { _ = body() }  // warm up
  for _ in 0..<runs {
    for (name, body) in cases {
      let start = now(clock)
      let size = body()
      samples[name, default: []].append(now(clock) - start)
      if size == 0 { fatalError("\(name) produced nothing") }
    }
  }
  return samples.mapValues(median)
}

func format(_ milliseconds: Double) -> String { String(format: "%.2f ms", milliseconds) }
func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }

struct BenchmarkError: Error, CustomStringConvertible { var description: String }

let runs = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 9
let only = CommandLine.arguments.dropFirst(2).first
func runs(_ section: String) -> Bool {
  only == section || (only == nil && section != "large")
}
let folder = FileManager.default.temporaryDirectory
  .appendingPathComponent("server-output-benchmark-\(getpid())", isDirectory: true)
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

// MARK: .http

if runs("http") {
  let sampleBytes = try JSONEncoder().encode(invoices(100)).count
  let value = invoices(100 * 1_000_000 / sampleBytes)
  let body = try JSONEncoder().encode(value)
  let object = try JSONSerialization.jsonObject(with: body)
  let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
  let message = HTTPMessage(response, body: body)
  let httpText = text(of: message, as: .http)
  let encodableText = text(of: value, as: .json)
  guard httpText.hasSuffix("\n\n" + encodableText) else {
    throw BenchmarkError(description: ".http's body is not .json's text")
  }
  let times = measure(
    runs: runs,
    clock: CLOCK_THREAD_CPUTIME_ID,
    [
      (".http", { text(of: message, as: .http).utf8.count }),
      (".json (Encodable)", { text(of: value, as: .json).utf8.count }),
      (".json (JSONSerialization object)", { text(of: object, as: .json).utf8.count }),
    ]
  )
  print(
    "### `.http` of a JSON response (\(body.count / 1000) kB body, median CPU time of \(runs))\n"
  )
  print("| case | time | `.http` ÷ case |")
  print("|---|---:|---:|")
  for name in [".http", ".json (Encodable)", ".json (JSONSerialization object)"] {
    print("| \(name) | \(format(times[name]!)) | \(ratio(times[".http"]!, times[name]!)) |")
  }
  print()
}

// MARK: .output

if runs("output") {
  let file = folder.appendingPathComponent("ten-megabytes.txt")
  let line = String(repeating: "x", count: 79) + "\n"
  try Data(String(repeating: line, count: 10 * 1024 * 1024 / 80).utf8).write(to: file)
  let cat = URL(fileURLWithPath: "/bin/cat")
  let command = Command(executable: cat, arguments: [file.path])
  func withPipe() -> Int {
    let process = Process()
    process.executableURL = cat
    process.arguments = [file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return 0 }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data.count
  }
  guard text(of: command, as: .output).utf8.count > 10 * 1024 * 1024 - 80, withPipe() > 0 else {
    throw BenchmarkError(description: ".output did not read the output")
  }
  // The wall clock: most of the work is the child's and the kernel's.
  let times = measure(
    runs: runs,
    clock: CLOCK_MONOTONIC,
    [
      (".output", { text(of: command, as: .output).utf8.count }),
      ("Process + Pipe", withPipe),
    ]
  )
  print("### `.output` of a command that prints 10 MiB (median wall time of \(runs))\n")
  print("| case | time | `.output` ÷ case |")
  print("|---|---:|---:|")
  for name in [".output", "Process + Pipe"] {
    print("| \(name) | \(format(times[name]!)) | \(ratio(times[".output"]!, times[name]!)) |")
  }
  print()
}

// MARK: .terminal

if runs("terminal") {
  var cases: [(String, () -> Int)] = []
  var sizes: [String: Int] = [:]
  for megabytes in [1, 2, 4] {
    let file = folder.appendingPathComponent("colour-\(megabytes).txt")
    var output = ""
    var index = 0
    while output.utf8.count < megabytes * 1024 * 1024 {
      output += "\u{1B}[3\(index % 8)mline \(index)\u{1B}[0m \u{1B}[1;4mbold\u{1B}[22;24m and "
      output +=
        "\u{1B}[38;5;\(index % 256)m256\u{1B}[39m \u{1B}[48;2;10;20;\(index % 256)mrgb\u{1B}[0m\n"
      index += 1
    }
    try Data(output.utf8).write(to: file)
    let command = Command(executable: URL(fileURLWithPath: "/bin/cat"), arguments: [file.path])
    let name = "\(megabytes) MiB"
    sizes[name] = output.utf8.count
    cases.append((name, { text(of: command, as: .terminal).utf8.count }))
  }
  let times = measure(runs: runs, clock: CLOCK_THREAD_CPUTIME_ID, cases)
  print("### `.terminal` of coloured output (median CPU time of \(runs))\n")
  print("| output | time | per MiB |")
  print("|---|---:|---:|")
  for name in ["1 MiB", "2 MiB", "4 MiB"] {
    let mebibytes = Double(sizes[name]!) / 1_048_576
    print("| \(name) | \(format(times[name]!)) | \(format(times[name]! / mebibytes)) |")
  }
  print()
}

if runs("terminal") {
  // 10,000 printed lines, each the last of five redraws of a progress bar, some with a status
  // line above it redrawn through cursor moves.
  var output = ""
  for index in 0..<10_000 {
    for step in 0..<5 {
      let done = String(repeating: "█", count: step * 8)
      let left = String(repeating: " ", count: 40 - step * 8)
      output += "\r\u{1B}[K\u{1B}[32m[\(done)\u{1B}[0m\(left)]"
      output += " \(step * 25)% 文件 \(index)"
    }
    if index % 10 == 0 {
      output += "\u{1B}7\u{1B}[1A\u{1B}[2K\u{1B}[1mstep \(index)\u{1B}[0m\u{1B}8"
    }
    output += "\n"
  }
  let file = folder.appendingPathComponent("progress.txt")
  try Data(output.utf8).write(to: file)
  let command = Command(executable: URL(fileURLWithPath: "/bin/cat"), arguments: [file.path])
  // The wall clock: both run the same child; the drawing is done on the runner's thread.
  let times = measure(
    runs: runs,
    clock: CLOCK_MONOTONIC,
    [
      (".terminal", { text(of: command, as: .terminal).utf8.count }),
      (".output", { text(of: command, as: .output).utf8.count }),
    ]
  )
  let mebibytes = String(format: "%.1f", Double(output.utf8.count) / 1_048_576)
  print(
    "### 10,000 lines of progress bars (\(mebibytes) MiB; median wall time of \(runs))\n"
  )
  print("| case | time | ÷ `.output` |")
  print("|---|---:|---:|")
  for name in [".terminal", ".output"] {
    print("| \(name) | \(format(times[name]!)) | \(ratio(times[name]!, times[".output"]!)) |")
  }
  print()
}

// MARK: large

/// The process's resident memory, in bytes (`/proc/self/statm`'s second field, in pages).
func residentBytes() -> Int {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The most memory `body` held at once above what the process held before it, in bytes: a
/// thread samples the resident size every millisecond while it runs.
func peakMemory(_ body: () -> Int) -> Int {
  // Freed memory the allocator keeps would be reused unseen; glibc's `malloc_trim` gives it
  // back first (looked up, since the Glibc module does not export it).
  #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
      _ = unsafeBitCast(trim, to: Trim.self)(0)
    }
  #endif
  final class Sampler: @unchecked Sendable {
    let lock = NSLock()
    var peak = 0
    var running = true
  }
  let sampler = Sampler()
  let before = residentBytes()
  let finished = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    while sampler.lock.withLock({ sampler.running }) {
      let resident = residentBytes()
      sampler.lock.withLock { sampler.peak = max(sampler.peak, resident) }
      usleep(1000)
    }
    finished.signal()
  }
  let size = body()
  if size == 0 { fatalError("produced nothing") }
  let after = residentBytes()
  sampler.lock.withLock { sampler.running = false }
  finished.wait()
  return max(sampler.peak, after) - before
}

if runs("large") {
  let sampleBytes = try JSONEncoder().encode(invoices(100)).count
  let value = invoices(100 * 50_000_000 / sampleBytes)
  let body = try JSONEncoder().encode(value)
  let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
  let message = HTTPMessage(response, body: body)
  func roundTrip() -> Int {
    guard let object = try? JSONSerialization.jsonObject(with: body),
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    else { return 0 }
    return String(decoding: data, as: UTF8.self).utf8.count
  }
  let cases: [(String, () -> Int)] = [
    (".http", { text(of: message, as: .http).utf8.count }),
    (".json (Encodable)", { text(of: value, as: .json).utf8.count }),
    ("JSONSerialization round trip", roundTrip),
  ]
  var peaks: [String: Int] = [:]
  for (name, body) in cases { peaks[name] = peakMemory(body) }
  let times = measure(runs: runs, clock: CLOCK_THREAD_CPUTIME_ID, cases)
  let megabytes = Double(body.count) / 1e6
  print(
    "### `.http` of a \(String(format: "%.1f", megabytes)) MB JSON response "
      + "(median CPU time of \(runs); peak memory above the process's before)\n"
  )
  print("| case | time | `.http` ÷ case | peak memory | ÷ body size |")
  print("|---|---:|---:|---:|---:|")
  for (name, _) in cases {
    let peak = Double(peaks[name]!) / 1e6
    print(
      "| \(name) | \(format(times[name]!)) | \(ratio(times[".http"]!, times[name]!)) "
        + "| \(String(format: "%.0f MB", peak)) | \(String(format: "%.2f×", peak / megabytes)) |"
    )
  }
  print()
}
