// The folder benchmark: one matching `.directory` assertion on a 2,000-file, 50 MB folder (its
// reference on disk, nothing changed) against `diff -r` on the same two folders, the issue's bound
// being 1.5×. Both read every byte of both folders; the page cache is warm for both (one
// untimed run each first).
//
// Usage:
//   DirectoryBenchmark [RUNS]
//       prints a Markdown table of medians (default 9 runs)

import Foundation
import SnapshotTesting

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 9
let fileCount = 2_000
let totalBytes = 50 * 1024 * 1024

/// A generated site: 40 folders of 50 files, half text (lines of words), half binary (bytes of a
/// seeded generator), `totalBytes` in all.
func makeFolder(at root: URL) throws {
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
  let perFile = totalBytes / fileCount
  for index in 0..<fileCount {
    let folder = root.appendingPathComponent("section-\(index % 40)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var bytes = [UInt8]()
    bytes.reserveCapacity(perFile)
    if index % 2 == 0 {
      let words = ["order", "shipped", "paid", "item", "total", "€", "customer", "line"]
      while bytes.count < perFile {
        bytes += Array("\(words[Int(next() % 8)]) \(next() % 10_000)\n".utf8)
      }
      bytes.removeLast(bytes.count - perFile)
      let name = "page-\(index).txt"
      try Data(bytes).write(to: folder.appendingPathComponent(name))
    } else {
      while bytes.count < perFile {
        withUnsafeBytes(of: next()) { bytes += $0 }
      }
      bytes.removeLast(bytes.count - perFile)
      try Data(bytes).write(to: folder.appendingPathComponent("asset-\(index).bin"))
    }
  }
}

/// Milliseconds of processor time (user and system) used so far by this process, or by its
/// finished children.
func processorTime(_ who: Int32) -> Double {
  var usage = rusage()
  getrusage(who, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
}

/// The median wall time and the median processor time of `runs` runs, in milliseconds: on a
/// machine shared with other work the second is the steadier figure.
func median(_ runs: Int, who: Int32, _ body: () -> Void) -> (wall: Double, processor: Double) {
  body()  // warms the page cache
  var times: [Double] = []
  var processor: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    let startProcessor = processorTime(who)
    body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    processor.append(processorTime(who) - startProcessor)
  }
  return (times.sorted()[runs / 2], processor.sorted()[runs / 2])
}

let root = FileManager.default.temporaryDirectory
  .appendingPathComponent("DirectoryBenchmark-\(UUID().uuidString)", isDirectory: true)
defer { try? FileManager.default.removeItem(at: root) }
let input = root.appendingPathComponent("output", isDirectory: true)
let snapshots = root.appendingPathComponent("__Snapshots__/DirectoryBenchmark", isDirectory: true)
try makeFolder(at: input)

func assertFolder(record: SnapshotTestingConfiguration.Record) -> String? {
  verifySnapshot(
    of: input,
    as: .directory,
    named: "site",
    record: record,
    snapshotDirectory: snapshots.path,
    testName: "folder()"
  )
}
_ = assertFolder(record: .all)
guard assertFolder(record: .never) == nil else {
  fatalError("the recorded folder does not match: \(assertFolder(record: .never) ?? "")")
}
let reference = snapshots.appendingPathComponent("folder.site")

/// `diff -r` as a shell runs it: `posix_spawn` and `waitpid` (Foundation's `Process` adds tens
/// of milliseconds of its own while it waits, which would flatter the ratio).
func diffRecursive() {
  let arguments = ["/usr/bin/diff", "-r", input.path, reference.path]
  var pointers = arguments.map { strdup($0) }
  pointers.append(nil)
  defer { for pointer in pointers { free(pointer) } }
  var pid: pid_t = 0
  guard posix_spawn(&pid, arguments[0], nil, nil, pointers, environ) == 0 else {
    fatalError("diff -r could not run")
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  guard status == 0 else { fatalError("diff -r found a difference") }
}

let directory = median(runs, who: Int32(RUSAGE_SELF.rawValue)) {
  precondition(assertFolder(record: .never) == nil)
}
let diff = median(runs, who: Int32(RUSAGE_CHILDREN.rawValue)) { diffRecursive() }
print("### Folder snapshot (\(fileCount) files, \(totalBytes / 1024 / 1024) MiB, nothing changed)")
print("")
print("| what | median ms | median processor ms |")
print("|---|---|---|")
func row(_ name: String, _ time: (wall: Double, processor: Double)) {
  print(
    "| \(name) | \(String(format: "%.1f", time.wall)) | \(String(format: "%.1f", time.processor)) |"
  )
}
row("`.directory`, a matching assertion (read both folders, compare)", directory)
row("`diff -r` on the same two folders", diff)
print(
  "| ratio | \(String(format: "%.2f", directory.wall / diff.wall))× "
    + "| \(String(format: "%.2f", directory.processor / diff.processor))× |"
)
