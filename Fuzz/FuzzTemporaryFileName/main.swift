// libFuzzer harness: `TemporaryFiles.writer(of:)` on arbitrary file names. Run with
// `scripts/fuzz.sh FuzzTemporaryFileName SECONDS`.
//
// What a write left behind is removed by the next write in its folder, so this parser decides
// which files get deleted. Invariants, for any name:
// - it never crashes;
// - it claims a name only in the exact form `TemporaryFiles.path(for:)` writes,
//   `.<name>.<pid in decimal>.<16 lowercase hex digits>.tmp`, or an earlier version's
//   `.<name>.<UUID>.tmp`; anything else (a `+` sign, leading zeros, full-width digits) is left alone;
// - the names it writes itself are always claimed, with its own process id.

import Foundation
import FuzzingSupport

@testable import RunRecord

/// One run of libFuzzer, on one input.
private func fuzzTemporaryFileName(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let name = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  check(name)
  // The fuzzed text as a destination: the name written for it must be claimed.
  if !name.contains("/") {
    let written = (TemporaryFiles.path(for: "/folder/" + name) as NSString).lastPathComponent
    require(TemporaryFiles.writer(of: written) == getpid(), "own name not claimed: \(written)")
  }
  return 0
}

private func check(_ name: String) {
  guard let writer = TemporaryFiles.writer(of: name) else { return }
  require(name.hasPrefix("."), "claimed a name without the leading dot: \(name.debugDescription)")
  require(name.utf8.count > 5, "claimed a name that is too short: \(name.debugDescription)")
  let bytes = Array(name.utf8.dropLast(4))
  require(String(decoding: name.utf8.suffix(4), as: UTF8.self) == ".tmp", "no .tmp: \(name)")
  let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
  let last = String(decoding: parts[parts.count - 1], as: UTF8.self)
  if writer == 0 {
    require(
      UUID(uuidString: last) != nil && last.utf8.count == 36,
      "claimed as an earlier version's name without a UUID: \(name.debugDescription)"
    )
    return
  }
  require(writer > 0, "negative writer \(writer) for \(name.debugDescription)")
  let pid = String(decoding: parts[parts.count - 2], as: UTF8.self)
  require(pid == String(writer), "pid \(writer) not written as ours: \(name.debugDescription)")
  require(
    last.utf8.count == 16 && last.utf8.allSatisfy(isLowercaseHexDigit),
    "random part not 16 lowercase hex digits: \(name.debugDescription)"
  )
}

private func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
  (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
}

/// Stops with a message libFuzzer reports as a crash, saving the input.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    FileHandle.standardError.write(Data("invariant violated: \(message())\n".utf8))
    abort()
  }
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzTemporaryFileName))
