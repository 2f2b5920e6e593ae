// libFuzzer harness: `FailureRecordStore.decode(_:)` on arbitrary bytes. Run with
// `scripts/fuzz.sh FuzzFailureRecord SECONDS`.
//
// The review tool reads whatever it finds in the failures folder: records of versions 1 to 3,
// another version's, a half-written or hand-edited file. Invariants, for any bytes:
// - decoding never crashes; it returns a record or throws;
// - a decoded record is of the current version, whatever version the file said;
// - a decoded record can be written back (`FailureRecordStore.save`'s encoder) and reads back
//   equal: the tool can rewrite what it accepted, and never accepts what it could not write.

import Foundation
import FuzzingSupport
import RunRecord

/// One run of libFuzzer, on one input.
private func fuzzFailureRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  guard let record = try? FailureRecordStore.decode(bytes) else { return 0 }
  require(record.version == FailureRecord.currentVersion, "decoded version \(record.version)")
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  let encoded: Data
  do {
    encoded = try encoder.encode(record)
  } catch {
    fail("a decoded record cannot be encoded again: \(error)\n\(record)")
  }
  do {
    let again = try FailureRecordStore.decode(encoded)
    require(again == record, "the record changed on a round trip:\n\(record)\n\(again)")
  } catch {
    fail("a re-encoded record does not decode: \(error)\n\(String(decoding: encoded, as: UTF8.self))")
  }
  return 0
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
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzFailureRecord))
