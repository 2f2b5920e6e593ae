// libFuzzer harness: `ReferenceUsageLog.load(folder:)` on an arbitrary log file. Run with
// `scripts/fuzz.sh FuzzUsageLog SECONDS`.
//
// The first byte of the input chooses the file: even, a `references-<pid>-<id>.txt` list of
// paths; odd, a `process-<pid>-<id>.json` description of a process. The rest is the file's
// content, written into a folder of its own. `snapshot-testing prune` deletes every reference
// that is not in the list, so a path the log holds must never be lost. Invariants:
// - loading never crashes;
// - a list that is valid UTF-8 loads, and gives exactly its non-empty lines (split at line feeds
//   only, as `ReferenceUsageLog` writes them: one path and `\n`), nothing else;
// - a list that is not UTF-8 is refused (an error), never read as other paths;
// - a process file's arguments are returned as the file has them, or the load fails.

import Foundation
import FuzzingSupport
import RunRecord

private let folder: URL = {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("FuzzUsageLog-\(getpid())", isDirectory: true)
  try? FileManager.default.removeItem(at: folder)
  try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  atexit {
    try? FileManager.default.removeItem(
      at: FileManager.default.temporaryDirectory
        .appendingPathComponent("FuzzUsageLog-\(getpid())", isDirectory: true)
    )
  }
  return folder
}()
private let listURL = folder.appendingPathComponent("references-1-fuzz.txt")
private let processURL = folder.appendingPathComponent("process-1-fuzz.json")

/// One run of libFuzzer, on one input.
private func fuzzUsageLog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = UnsafeBufferPointer(start: data, count: size)
  guard let selector = input.first else { return 0 }
  let content = Data(input.dropFirst())
  let isList = selector % 2 == 0
  try? FileManager.default.removeItem(at: isList ? processURL : listURL)
  try! content.write(to: isList ? listURL : processURL)
  let loaded = try? ReferenceUsageLog.load(folder: folder)
  if isList {
    checkList(content, loaded: loaded?.paths)
  } else if let loaded {
    require(loaded.paths.isEmpty, "paths from a process file: \(loaded.paths)")
    require(loaded.processes.count == 1, "\(loaded.processes.count) processes from one file")
    let decoded = try? JSONDecoder().decode(ReferenceUsageLog.ProcessInfoRecord.self, from: content)
    require(decoded?.arguments == loaded.processes.first?.arguments, "arguments differ")
  }
  return 0
}

private func checkList(_ content: Data, loaded: Set<String>?) {
  guard let text = String(validating: content, as: UTF8.self) else {
    require(loaded == nil, "a list that is not UTF-8 was read as \(loaded!)")
    return
  }
  let lines = text.utf8.split(separator: UInt8(ascii: "\n"))
    .map { String(decoding: $0, as: UTF8.self) }
  guard let loaded else { fail("a UTF-8 list was refused: \(text.debugDescription)") }
  require(
    loaded == Set(lines),
    "the list \(text.debugDescription) loaded as \(loaded.sorted()), not \(Set(lines).sorted())"
  )
}

/// Stops with a message libFuzzer reports as a crash, saving the input.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

private func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("invariant violated: \(message)\n".utf8))
  abort()
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzUsageLog))
