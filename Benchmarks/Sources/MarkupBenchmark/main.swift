// The markup benchmark: what `.html` costs on a 1 MB one-line page (read, canonical text, then
// the line diff against a reference with one changed cell) next to `.lines` on the canonical
// text itself (the diff alone), the issue's bound being 2×. A redaction sends `.html` through
// the tree reader instead of the direct printer: its row shows what the direct printer saves.
//
// The cases run in alternating rounds (see `measure`), so that none of them inherits a heap
// another one grew, and none always runs last.
//
// Usage:
//   MarkupBenchmark [RUNS]
//       prints a Markdown table of medians (default 15 rounds), wall clock and thread CPU time
//   MarkupBenchmark RUNS --profile-html
//       only reads and prints the page RUNS times (for `perf record`)
//   MarkupBenchmark RUNS --profile-diff
//       only runs `.lines` on the canonical text RUNS times (for `perf record` or `perf stat`)

import Foundation
import MarkupSnapshotTesting

/// A one-line page of about `bytes` bytes, as Plot prints one: a table of rows with links.
func page(bytes: Int, changedRow: Int? = nil) -> String {
  var html =
    #"<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"/><title>Orders</title>"#
    + #"<link rel="stylesheet" href="/styles.css"/></head><body><table class="orders"><tbody>"#
  var row = 0
  while html.utf8.count < bytes {
    let status = row == changedRow ? "refunded" : ["paid", "shipped", "pending"][row % 3]
    html +=
      #"<tr id="order-\#(row)"><td class="number">\#(row)</td><td><a href="/orders/\#(row)"#
      + #"?tab=lines&amp;sort=sku">Order \#(row)</a></td><td class="status \#(status)">"#
      + #"\#(status)</td><td>\#(row * 7 % 1000).\#(row % 100) €</td></tr>"#
    row += 1
  }
  return html + "</tbody></table></body></html>"
}

func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func median(_ samples: [Double]) -> Double {
  let sorted = samples.sorted()
  return sorted[sorted.count / 2]
}

/// Times the cases in rounds that alternate them, each round starting one case further on, so
/// that every case runs as often after each other one: the heap that one case grows or trims
/// (the tree reader's objects, the diff's arrays) and a change in the machine's load reach them
/// all alike. The median of each case: wall-clock milliseconds, and the milliseconds of CPU time
/// the thread spent (which a busy machine's other processes do not inflate).
func measure(runs: Int, _ cases: [(String, () -> Void)]) -> [String: (wall: Double, cpu: Double)] {
  var wall: [String: [Double]] = [:]
  var cpu: [String: [Double]] = [:]
  for (_, body) in cases { body() }  // warm up
  for round in 0..<runs {
    for offset in cases.indices {
      let (name, body) = cases[(round + offset) % cases.count]
      let start = DispatchTime.now().uptimeNanoseconds
      let cpuStart = threadCPUNanoseconds()
      body()
      cpu[name, default: []].append(Double(threadCPUNanoseconds() - cpuStart) / 1e6)
      wall[name, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
  }
  return Dictionary(
    uniqueKeysWithValues: cases.map { name, _ in
      (name, (median(wall[name]!), median(cpu[name]!)))
    }
  )
}

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 15
let original = page(bytes: 1_000_000)
let changed = page(bytes: 1_000_000, changedRow: 4_000)
func canonical(_ html: String, as strategy: Snapshotting<String, String> = .html) -> String {
  var text = ""
  strategy.snapshot(html).run { text = $0 }
  return text
}
/// Redacts the stylesheet link, outside the table: the rows print as without it.
let throughTheTree = Snapshotting<String, String>.html(redacting: [
  .attribute("href", of: "link")
])
let reference = canonical(original)
let changedText = canonical(changed)
let lineCount = changedText.split(separator: "\n").count

/// `.lines` on the canonical text: the strategy's text (the value itself) and the line diff.
func lines(_ value: String) {
  var text = ""
  Snapshotting<String, String>.lines.snapshot(value).run { text = $0 }
  _ = Diffing<String>.lines.diffV2(reference, text)
}

if CommandLine.arguments.contains("--profile-html") {
  // Only the read and canonical text, for a profiler.
  for _ in 0..<runs { _ = canonical(changed) }
  exit(0)
}
if CommandLine.arguments.contains("--profile-diff") {
  // Only `.lines` on the canonical text, for a profiler (or `perf stat`: its page faults).
  for _ in 0..<runs { lines(changedText) }
  exit(0)
}

let results = measure(
  runs: runs,
  [
    ("html", { _ = Diffing<String>.lines.diffV2(reference, canonical(changed)) }),
    ("print", { _ = canonical(changed) }),
    (
      "tree",
      { _ = Diffing<String>.lines.diffV2(reference, canonical(changed, as: throughTheTree)) }
    ),
    ("lines", { lines(changedText) }),
  ]
)
print(
  "### Markup (\(original.utf8.count) bytes on one line, \(lineCount) canonical lines; "
    + "median of \(runs) alternating rounds)"
)
print("")
func row(_ name: String, _ time: (wall: Double, cpu: Double)) {
  print("| \(name) | \(String(format: "%.2f", time.wall)) | \(String(format: "%.2f", time.cpu)) |")
}
print("| strategy | median ms | median CPU ms |")
print("|---|---|---|")
row("`.html` (read, canonical text, line diff)", results["html"]!)
row("`.html`: read and canonical text only", results["print"]!)
row("`.html(redacting:)`, through the tree reader", results["tree"]!)
row("`.lines` on the canonical text (line diff)", results["lines"]!)
let (html, text) = (results["html"]!, results["lines"]!)
print(
  "| ratio `.html` / `.lines` | \(String(format: "%.2f", html.wall / text.wall))× "
    + "| \(String(format: "%.2f", html.cpu / text.cpu))× |"
)
