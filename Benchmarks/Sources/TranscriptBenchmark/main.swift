// The transcript benchmark, issue 34's two bounds in one run:
//
// - `.transcript` of one request with 1,000 log entries and 200 spans against `.lines` on the
//   very text it produces: a matching `verifySnapshot` with the reference on disk, and the
//   strategy's text followed by the line diff against a reference with one changed entry (at
//   most 2×);
// - what capture adds to the handler that makes those entries and spans: the handler run inside
//   `Transcript.record` with the capture's logger and tracer, and with the process-wide bootstrap
//   routing `Logger(label:)` and `InstrumentationSystem.tracer`, against the same handler with
//   swift-log's no-op handler and swift-distributed-tracing's `NoOpTracer` (at most 1.5×).
//
// Rounds alternate the cases, so that a change in the machine's load hits all of them alike;
// each case's median is shown, in the process's CPU time (the capture runs on the concurrency
// pool's threads, so this thread's time would miss some of it).
//
// Usage:
//   TranscriptBenchmark [RUNS]
//       prints Markdown tables of medians (default 31 runs)
//   TranscriptBenchmark RUNS --profile-text (--profile-capture, --profile-bootstrap,
//   --profile-handler)
//       only makes the text (runs the handler) RUNS times, for a profiler; the text's
//       median time goes to standard error
//   TranscriptBenchmark 1 --print-text
//       prints the text, to compare two builds'

import Foundation
import InMemoryLogging
import InMemoryTracing
import TranscriptSnapshotTesting

#if canImport(Glibc)
  import Glibc
#endif

// MARK: The handler

struct OrderLine: Codable {
  var sku: String
  var quantity: Int
  var unitPrice: Double
}

struct Order: Codable {
  var id: Int
  var reference: String
  var customer: String
  var lines: [OrderLine]
  var total: Double
}

/// The store the handler reads: 66 orders of 6 lines, each order with a UUID of its own.
let store: [Order] = (0..<66).map { index in
  let lines = (0..<6).map { line in
    OrderLine(sku: "SKU-\(10_000 + index * 7 + line)", quantity: 1 + line % 3, unitPrice: 9.5)
  }
  return Order(
    id: index,
    reference: UUID().uuidString,
    customer: "Customer \(index / 3)",
    lines: lines,
    total: 0
  )
}

/// The work of `GET /orders`: for each of the 66 orders, a span that loads it with two query
/// spans under it and 15 log entries; 5 entries before and after; one span that encodes the
/// page as JSON. 1 + 66 × 3 + 1 = 200 spans and 5 + 66 × 15 + 5 = 1,000 entries, the way a
/// Hummingbird route logs through the request's logger and traces through the tracer it is given.
func listOrders(logger: Logger, tracer: some Tracer) -> (HTTPResponse, Data) {
  tracer.withSpan("GET /orders", ofKind: .server) { span in
    span.attributes["http.request.method"] = "GET"
    span.attributes["http.route"] = "/orders"
    span.attributes["url.path"] = "/orders"
    logger.info("Listing orders", metadata: ["page": "1", "page.size": "\(store.count)"])
    for parameter in ["sort", "filter", "fields", "cursor"] {
      logger.debug("No parameter given", metadata: ["parameter": "\(parameter)"])
    }
    var page: [Order] = []
    for stored in store {
      var order = stored
      tracer.withSpan("load order", ofKind: .internal) { load in
        load.attributes["order.id"] = order.id
        logger.info("Loading order", metadata: ["order.id": "\(order.id)"])
        tracer.withSpan("SELECT orders", ofKind: .client) { query in
          query.attributes["db.system"] = "memory"
          query.attributes["db.rows"] = 1
        }
        logger.debug(
          "Loaded order \(order.reference)",
          metadata: ["customer": "\(order.customer)", "order.id": "\(order.id)"]
        )
        tracer.withSpan("SELECT order_lines", ofKind: .client) { query in
          query.attributes["db.system"] = "memory"
          query.attributes["db.rows"] = order.lines.count
          if order.id % 3 == 0 {
            let key = "order:\(order.id)"
            query.addEvent(SpanEvent(name: "cache miss", attributes: ["key": .string(key)]))
          }
        }
        var total = 0.0
        for line in order.lines {
          logger.debug("Reading line", metadata: ["sku": "\(line.sku)"])
          let price = Double(line.quantity) * line.unitPrice
          total += price
          logger.trace(
            "Priced line",
            metadata: [
              "sku": "\(line.sku)", "quantity": "\(line.quantity)", "price": "\(price)",
            ]
          )
        }
        order.total = total
        logger.info("Order total", metadata: ["order.id": "\(order.id)", "total": "\(total)"])
      }
      page.append(order)
    }
    let body = tracer.withSpan("encode response", ofKind: .internal) { encode in
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let body = (try? encoder.encode(page)) ?? Data()
      encode.attributes["http.response.body.size"] = body.count
      return body
    }
    logger.info("Listed orders", metadata: ["count": "\(page.count)"])
    logger.debug("Response encoded", metadata: ["bytes": "\(body.count)"])
    logger.trace("Page complete")
    logger.trace("No next page")
    logger.notice("Request done", metadata: ["status": "200"])
    span.attributes["http.response.status_code"] = 200
    span.setStatus(SpanStatus(code: .ok))
    return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body)
  }
}

let request = HTTPRequest(
  method: .get,
  scheme: "http",
  authority: "127.0.0.1:8080",
  path: "/orders?page=1"
)

/// A logger as Hummingbird hands a route one: the request's identifier in its metadata.
func requestLogger(_ logger: Logger) -> Logger {
  var logger = logger
  logger[metadataKey: "hb.request.id"] = "\(UUID().uuidString.prefix(8))"
  return logger
}

/// The request, the handler's work with the capture's logger and tracer, and the response.
func capturedTranscript() async -> Transcript {
  await Transcript.record { capture in
    capture.record(request)
    let (response, body) = listOrders(
      logger: requestLogger(capture.logger(label: "orders")),
      tracer: capture.tracer
    )
    capture.record(response, body: body)
  }
}

/// The same, the handler's logger made by the bootstrapped `LoggingSystem` and its tracer
/// `InstrumentationSystem.tracer`, both routing to the task's capture.
func bootstrappedTranscript() async -> Transcript {
  await Transcript.record { capture in
    capture.record(request)
    let (response, body) = listOrders(
      logger: requestLogger(Logger(label: "orders")),
      tracer: InstrumentationSystem.tracer
    )
    capture.record(response, body: body)
  }
}

// MARK: Measuring

/// Holds what the last case made, so that making it is never optimised away; `measure` frees
/// it after the case's time is taken, and times the freeing apart.
nonisolated(unsafe) var kept: Any?

/// The process's CPU time in milliseconds: every thread's, none of other processes'.
func processMilliseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func median(_ samples: [Double]) -> Double {
  let sorted = samples.sorted()
  return sorted[sorted.count / 2]
}

/// Times the cases in rounds that alternate them; the median of each, in milliseconds. What a
/// case left in `kept` is freed after its time is taken, and that freeing's median is under
/// `"<name> freed"`.
func measure(runs: Int, _ cases: [(String, () async -> Int)]) async -> [String: Double] {
  var samples: [String: [Double]] = [:]
  for (_, body) in cases {  // warm up
    _ = await body()
    kept = nil
  }
  for _ in 0..<runs {
    for (name, body) in cases {
      let start = processMilliseconds()
      let size = await body()
      let end = processMilliseconds()
      kept = nil
      samples[name, default: []].append(end - start)
      samples["\(name) freed", default: []].append(processMilliseconds() - end)
      if size == 0 { fatalError("\(name) produced nothing") }
    }
  }
  return samples.mapValues(median)
}

func format(_ milliseconds: Double) -> String { String(format: "%.3f ms", milliseconds) }
func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }

struct BenchmarkError: Error, CustomStringConvertible { var description: String }

/// The text a strategy produces, through its public `snapshot(value).run`.
func text<Value>(of value: Value, as strategy: Snapshotting<Value, String>) -> String {
  var text = ""
  strategy.snapshot(value).run { text = $0 }
  return text
}

let noOpLogger = Logger(label: "orders") { _ in SwiftLogNoOpLogHandler() }
let runs = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 31
Transcript.bootstrap()

// `TranscriptBenchmark RUNS --profile-capture` (`--profile-bootstrap`, `--profile-handler`) only
// runs the handler with the capture's logger and tracer (with the bootstrapped ones, with the
// no-op logger and tracer) RUNS times, for a profiler.
if CommandLine.arguments.contains("--profile-capture") {
  for _ in 0..<runs { kept = await capturedTranscript() }
  exit(0)
}
if CommandLine.arguments.contains("--profile-bootstrap") {
  for _ in 0..<runs { kept = await bootstrappedTranscript() }
  exit(0)
}
if CommandLine.arguments.contains("--profile-handler") {
  for _ in 0..<runs { _ = listOrders(logger: requestLogger(noOpLogger), tracer: NoOpTracer()) }
  exit(0)
}

// MARK: The text

let transcript = await capturedTranscript()
let transcriptText = text(of: transcript, as: .transcript)
// `TranscriptBenchmark RUNS --profile-text` only makes the strategy's text RUNS times, for a
// profiler; `--print-text` prints it once, to compare two builds' texts.
if CommandLine.arguments.contains("--profile-text") {
  var samples: [Double] = []
  for _ in 0..<runs {
    let start = processMilliseconds()
    kept = text(of: transcript, as: .transcript)
    samples.append(processMilliseconds() - start)
    kept = nil
  }
  FileHandle.standardError.write(Data("text: \(format(median(samples))) (median)\n".utf8))
  exit(0)
}
if CommandLine.arguments.contains("--print-text") {
  print(transcriptText, terminator: "")
  exit(0)
}
let lineCount = transcriptText.split(separator: "\n", omittingEmptySubsequences: false).count
let logCount = transcriptText.components(separatedBy: "\n── log ").count - 1
guard logCount == 1_000 else {
  throw BenchmarkError(description: "the transcript holds \(logCount) entries, not 1,000")
}
let bootstrappedText = text(of: await bootstrappedTranscript(), as: .transcript)
guard bootstrappedText == transcriptText else {
  if let diff = Diffing<String>.lines.diffV2(transcriptText, bootstrappedText)?.0 {
    FileHandle.standardError.write(Data(diff.prefix(3000).utf8))
  }
  throw BenchmarkError(description: "the bootstrapped capture gave another text")
}
// A reference that differs from the text in one entry, for the failing comparison.
let changedReference = transcriptText.replacingOccurrences(
  of: "── log info orders: Loading order\n",
  with: "── log info orders: Loading an order\n",
  options: [],
  range: transcriptText.range(of: "── log info orders: Loading order\n")
)
guard changedReference != transcriptText else {
  throw BenchmarkError(description: "the reference with a changed entry is the same text")
}

let directory = FileManager.default.temporaryDirectory
  .appendingPathComponent("transcript-benchmark-\(getpid())", isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

/// One `verifySnapshot` of a named snapshot in the benchmark's folder; its failure message.
func verify<Value>(
  _ value: Value,
  as strategy: Snapshotting<Value, String>,
  named name: String,
  record: SnapshotTestingConfiguration.Record
) -> String? {
  verifySnapshot(
    of: value,
    as: strategy,
    named: name,
    record: record,
    snapshotDirectory: directory.path,
    testName: "benchmark"
  )
}

guard verify(transcript, as: .transcript, named: "transcript", record: .all) != nil,
  verify(transcriptText, as: .lines, named: "lines", record: .all) != nil
else {
  throw BenchmarkError(description: "recording the references reported no recording")
}
let references = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
guard references.count == 2,
  FileManager.default.contentsEqual(
    atPath: directory.appendingPathComponent(references[0]).path,
    andPath: directory.appendingPathComponent(references[1]).path
  )
else {
  throw BenchmarkError(description: "the two references differ: \(references)")
}

func matching<Value>(_ value: Value, as strategy: Snapshotting<Value, String>, named name: String)
  -> Int
{
  if let failure = verify(value, as: strategy, named: name, record: .never) {
    fatalError("unexpected failure: \(failure)")
  }
  return 1
}

func changed<Value>(_ value: Value, as strategy: Snapshotting<Value, String>) -> Int {
  let new = text(of: value, as: strategy)
  return Diffing<String>.lines.diffV2(changedReference, new)?.0.utf8.count ?? 0
}

// Two parts of `.transcript`'s time, measured apart: its text alone (rendered and scrubbed: what
// it adds to reading and comparing the reference, which is all a matching `.lines` does), and
// `.http` of the response, whose JSON body that text holds.
let (response, responseBody) = listOrders(logger: noOpLogger, tracer: NoOpTracer())
let responseMessage = HTTPMessage(response, body: responseBody)

let textTimes = await measure(
  runs: runs,
  [
    ("transcript matching", { matching(transcript, as: .transcript, named: "transcript") }),
    ("lines matching", { matching(transcriptText, as: .lines, named: "lines") }),
    ("transcript changed", { changed(transcript, as: .transcript) }),
    ("lines changed", { changed(transcriptText, as: .lines) }),
    ("text", { text(of: transcript, as: .transcript).utf8.count }),
    ("http", { text(of: responseMessage, as: .http).utf8.count }),
  ]
)

print(
  "### `.transcript` of a request with 1,000 log entries and 200 spans "
    + "(\(lineCount) lines, \(transcriptText.utf8.count / 1000) kB; median CPU time of \(runs))\n"
)
print("| assertion | `.transcript` | `.lines` on its text | `.transcript` ÷ `.lines` |")
print("|---|---:|---:|---:|")
for (name, title) in [
  ("matching", "matching, reference on disk (`verifySnapshot`, `record: .never`)"),
  ("changed", "text and line diff against a reference with one entry changed"),
] {
  let transcriptTime = textTimes["transcript \(name)"]!
  let linesTime = textTimes["lines \(name)"]!
  print(
    "| \(title) | \(format(transcriptTime)) | \(format(linesTime)) "
      + "| **\(ratio(transcriptTime, linesTime))** |"
  )
}
print(
  "\nOf `.transcript`'s time, measured apart: its text alone (rendered, scrubbed), "
    + "\(format(textTimes["text"]!)); of that, `.http` of the response "
    + "(\(responseMessage.body?.count ?? 0) bytes of JSON), \(format(textTimes["http"]!))."
)
print()

// MARK: Capture

func keep(_ product: Any) -> Int {
  kept = product
  return 1
}

/// A handler that takes every entry, so that each message and its metadata are made, and keeps
/// none: what the entries cost before anyone stores them.
struct DroppingLogHandler: LogHandler {
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace
  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }
  func log(event: LogEvent) {
    if event.message.description.isEmpty { fatalError("an empty message") }
  }
}
let droppingLogger = Logger(label: "orders") { _ in DroppingLogHandler() }

// The cases are functions, not closures written here: a closure made in top-level code runs on
// the main thread, while `Transcript.record` runs on the concurrency pool, and a case that ran on
// another thread (another core, another cache) than the one it is compared with made the ratios
// swing between runs. As functions they all run where `measure` runs.
func noOpCase() async -> Int {
  keep(listOrders(logger: requestLogger(noOpLogger), tracer: NoOpTracer()))
}
func droppingCase() async -> Int {
  keep(listOrders(logger: requestLogger(droppingLogger), tracer: NoOpTracer()))
}
func inMemoryCase() async -> Int {
  let handler = InMemoryLogHandler()
  var logger = Logger(label: "orders") { _ in handler }
  logger.logLevel = .trace
  let tracer = InMemoryTracer()
  let response = listOrders(logger: requestLogger(logger), tracer: tracer)
  guard handler.entries.count == 1_000, tracer.finishedSpans.count == 200 else { return 0 }
  return keep((handler, tracer, response))
}
func captureCase() async -> Int { await keep(capturedTranscript()) }
// What each half of the capture costs: its logger with `NoOpTracer`, and its tracer with the
// dropping logger (whose entries are made as the capture's are, and dropped).
func capturedLogsCase() async -> Int {
  await keep(
    Transcript.record { capture in
      _ = listOrders(logger: requestLogger(capture.logger(label: "orders")), tracer: NoOpTracer())
    }
  )
}
func capturedSpansCase() async -> Int {
  await keep(
    Transcript.record { capture in
      _ = listOrders(logger: requestLogger(droppingLogger), tracer: capture.tracer)
    }
  )
}
func bootstrapCase() async -> Int { await keep(bootstrappedTranscript()) }

let captureTimes = await measure(
  runs: runs,
  [
    ("no-op", noOpCase),
    ("dropping", droppingCase),
    ("in-memory", inMemoryCase),
    ("capture", captureCase),
    ("bootstrap", bootstrapCase),
    ("captured logs", capturedLogsCase),
    ("captured spans", capturedSpansCase),
  ]
)

print("### The handler of that request, with and without capture (median CPU time of \(runs))\n")
print("| case | time | ÷ no-op | then freeing what it made | ÷ no-op, freeing included |")
print("|---|---:|---:|---:|---:|")
for (name, title) in [
  ("no-op", "the handler alone: swift-log's no-op handler, `NoOpTracer`"),
  ("dropping", "every entry made and dropped (a handler at `.trace` that keeps none)"),
  ("in-memory", "swift-log's `InMemoryLogHandler` at `.trace`, `InMemoryTracer`"),
  ("capture", "in `Transcript.record`, the capture's logger and tracer"),
  ("bootstrap", "in `Transcript.record`, `Logger(label:)` and the tracer of the bootstrap"),
  ("captured logs", "in `Transcript.record`, the capture's logger and `NoOpTracer`"),
  ("captured spans", "in `Transcript.record`, the dropping logger and the capture's tracer"),
] {
  let time = captureTimes[name]!
  let freed = captureTimes["\(name) freed"]!
  let noOp = captureTimes["no-op"]!
  let noOpFreed = captureTimes["no-op freed"]!
  let shown = ratio(time, noOp)
  print(
    "| \(title) | \(format(time)) | \(name == "no-op" ? shown : "**\(shown)**") "
      + "| \(format(freed)) | \(ratio(time + freed, noOp + noOpFreed)) |"
  )
}
print()
