import Dispatch
import Foundation
import ImageSnapshotTesting
import SnapshotTesting
// Only for `ContextReuseMeasurement`, which weighs the reset of a kept browser context against
// what reuse saves; everything else goes through the public API.
@_spi(Benchmarks) import WebSnapshotTesting

// WebBenchmark pages <folder>    writes the twelve pages (for the Playwright side)
// WebBenchmark cold              one snapshot in a fresh process: start the browser, snapshot
// WebBenchmark warm <count>      snapshots one after another in a running browser: as every
//                                snapshot does (contexts reused, reset by the browser), and, in
//                                rounds alternating with it, with the reset skipped (unsafe,
//                                measurement only) and with a new context for every snapshot
// WebBenchmark parallel <count>  that many snapshots at once; wall time and browsers started

let strategy = Snapshotting<WebPage, Bitmap>.image(width: 800, height: 600)
let started = DispatchTime.now()

func seconds(since start: DispatchTime) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Takes the snapshot through the strategy's public `Async`, and checks it is a real render
/// (a failure hands on a 1×1 placeholder).
func snapshot(_ page: WebPage) -> Bitmap {
  let done = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var result: Bitmap?
  strategy.snapshot(page).run { bitmap in
    result = bitmap
    done.signal()
  }
  done.wait()
  guard let result, result.width == 800, result.height == 600 else {
    FileHandle.standardError.write(Data("error: the snapshot failed\n".utf8))
    exit(1)
  }
  return result
}

func page(_ index: Int) -> WebPage {
  WebPage(html: Pages.all[index % Pages.all.count].html)
}

/// The browsers (not their helpers, nor the shell script Debian starts some of them through)
/// this process started.
func browserCount() -> Int {
  let marker = Data("SNAPSHOT_TESTING_BROWSER_OWNER=\(getpid())\u{0}".utf8)
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.filter { entry in
    guard Int32(entry) != nil,
      let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
      environment.range(of: marker) != nil,
      let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
    else { return false }
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe")) ?? ""
    return commandLine.range(of: Data("--remote-debugging-pipe".utf8)) != nil
      && commandLine.range(of: Data("--type=".utf8)) == nil
      && !["sh", "dash", "bash"].contains(URL(fileURLWithPath: executable).lastPathComponent)
  }.count
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "pages":
  let folder = URL(fileURLWithPath: arguments.dropFirst().first ?? "pages", isDirectory: true)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  for (name, html) in Pages.all {
    try Data(html.utf8).write(to: folder.appendingPathComponent("\(name).html"))
  }
case "cold":
  _ = snapshot(page(0))
  print(String(format: "cold %.1f ms", seconds(since: started) * 1000))
case "warm":
  let count = Int(arguments.dropFirst().first ?? "") ?? 50
  _ = snapshot(page(0))  // starts the browser
  // The three ways take turns, in rounds of 10 timed snapshots each, so that a change in the
  // machine's load weighs on all of them alike. The first two snapshots of a turn are not
  // timed: they take the pages the previous way left ready.
  let ways: [(name: String, measurement: ContextReuseMeasurement)] = [
    ("warm", ContextReuseMeasurement(.resetAndReused)),
    ("warm, reset skipped (unsafe)", ContextReuseMeasurement(.reusedWithoutReset)),
    ("warm, new context each", ContextReuseMeasurement(.neverReused)),
  ]
  var times = Array(repeating: [Double](), count: ways.count)
  let turn = 10
  var index = 0
  while times[0].count < count {
    for (way, (_, measurement)) in ways.enumerated() {
      measurement.run {
        for step in 0..<(2 + min(turn, count - times[way].count)) {
          let start = DispatchTime.now()
          _ = snapshot(page(index))
          index += 1
          if step >= 2 { times[way].append(seconds(since: start) * 1000) }
        }
      }
    }
  }
  for (way, (name, _)) in ways.enumerated() {
    print(
      name
        + String(
          format: " median %.1f ms, min %.1f ms, max %.1f ms over %d snapshots",
          median(times[way]),
          times[way].min() ?? 0,
          times[way].max() ?? 0,
          times[way].count
        )
    )
  }
  let resets = ways[0].measurement.resetMilliseconds
  print(
    String(
      format: "the reset itself (after its snapshot was handed on) median %.1f ms over %d resets",
      resets.isEmpty ? 0 : median(resets),
      resets.count
    )
  )
case "parallel":
  let count = Int(arguments.dropFirst().first ?? "") ?? 50
  _ = snapshot(page(0))
  let start = DispatchTime.now()
  let group = DispatchGroup()
  let lock = NSLock()
  nonisolated(unsafe) var failures = 0
  for index in 0..<count {
    group.enter()
    strategy.snapshot(page(index)).run { bitmap in
      if bitmap.width != 800 { lock.withLock { failures += 1 } }
      group.leave()
    }
  }
  group.wait()
  print(
    String(
      format: "parallel %d snapshots in %.1f ms wall, %d failed, %d browser(s)",
      count,
      seconds(since: start) * 1000,
      failures,
      browserCount()
    )
  )
default:
  print("usage: WebBenchmark pages <folder> | cold | warm <count> | parallel <count>")
  exit(2)
}
