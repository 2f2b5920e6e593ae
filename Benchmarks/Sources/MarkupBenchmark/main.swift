// The markup benchmark: what `.html` costs on a 1 MB one-line page (read, canonical text, then
// the line diff against a reference with one changed cell) next to `.lines` on the canonical
// text itself (the diff alone), the issue's bound being 2×. A redaction sends `.html` through
// the tree reader instead of the direct printer: its row shows what the direct printer saves.
//
// Usage:
//   MarkupBenchmark [RUNS]
//   MarkupBenchmark RUNS --profile-html
//       only reads and prints the page RUNS times (for `perf record`)
//       prints a Markdown table of medians (default 15 runs), wall clock and thread CPU time

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

/// The medians of `runs` runs of `body`: wall-clock milliseconds, and the milliseconds of CPU
/// time the thread spent (which a busy machine's other processes do not inflate).
func median(_ runs: Int, _ body: () -> Void) -> (wall: Double, cpu: Double) {
  var wall: [Double] = []
  var cpu: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = threadCPUNanoseconds()
    body()
    cpu.append(Double(threadCPUNanoseconds() - cpuStart) / 1e6)
    wall.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }
  return (wall.sorted()[runs / 2], cpu.sorted()[runs / 2])
}

func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
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

if CommandLine.arguments.contains("--profile-html") {
  // Only the read and canonical text, for a profiler.
  for _ in 0..<runs { _ = canonical(changed) }
  exit(0)
}

let html = median(runs) {
  _ = Diffing<String>.lines.diffV2(reference, canonical(changed))
}
let htmlAlone = median(runs) { _ = canonical(changed) }
let tree = median(runs) {
  _ = Diffing<String>.lines.diffV2(reference, canonical(changed, as: throughTheTree))
}
let lines = median(runs) {
  var text = ""
  Snapshotting<String, String>.lines.snapshot(changedText).run { text = $0 }
  _ = Diffing<String>.lines.diffV2(reference, text)
}
print("### Markup (\(original.utf8.count) bytes on one line, \(lineCount) canonical lines)")
print("")
func row(_ name: String, _ time: (wall: Double, cpu: Double)) {
  print("| \(name) | \(String(format: "%.1f", time.wall)) | \(String(format: "%.1f", time.cpu)) |")
}
print("| strategy | median ms | median CPU ms |")
print("|---|---|---|")
row("`.html` (read, canonical text, line diff)", html)
row("`.html`: read and canonical text only", htmlAlone)
row("`.html(redacting:)`, through the tree reader", tree)
row("`.lines` on the canonical text (line diff)", lines)
print(
  "| ratio `.html` / `.lines` | \(String(format: "%.2f", html.wall / lines.wall))× "
    + "| \(String(format: "%.2f", html.cpu / lines.cpu))× |"
)
