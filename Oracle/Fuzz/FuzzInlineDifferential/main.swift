// libFuzzer harness: the package's scanner-based rewriter against the swift-syntax oracle on
// mutated valid Swift. Run with `scripts/fuzz-differential.sh SECONDS` from the package's root.
//
// An input is the bytes of a Swift source. Inputs that are not UTF-8, or that swift-syntax does
// not parse without errors, are not compared: the harness is about valid Swift, and the
// arbitrary-bytes harness of the main package (FuzzInlineRewriter) covers the rest. On a valid
// input, both rewriters write and remove a snapshot through three descriptors at up to two
// call sites and at all of them at once (`compareRewriters`); any difference, or a text written
// where the oracle refused, stops the run and keeps the input.
//
// Mutations: three in four are `SourceMutator`'s edits (statements and comments holding the
// tokens the scanner must read past, line breaks after brackets, lines duplicated or deleted),
// which keep a source valid far more often than byte flips; the rest are libFuzzer's own.

import DifferentialFuzzingDriver
import Foundation
import InlineDifferential

private func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data, size > 0,
    let source = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  else { return 0 }
  var tally = DifferentialTally()
  let outcome = checkMutant(source, name: "input", callsPerFile: 2, tally: &tally)
  if case .compared(let differences) = outcome, !differences.isEmpty {
    FileHandle.standardError.write(
      Data("the rewriters differ:\n\(differences.joined(separator: "\n"))\n".utf8)
    )
    abort()
  }
  return 0
}

/// libFuzzer's entry point. In a debug build SwiftPM renames this file's `main` (so that tests
/// can link executables), and libFuzzer's own `main` runs instead and calls this.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  testOneInput(data, size)
}

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(
  _ data: UnsafeMutablePointer<UInt8>,
  _ size: Int,
  _ maxSize: Int,
  _ seed: UInt32
) -> Int {
  if seed % 4 == 0 { return differential_fuzzing_mutate(data, size, maxSize) }
  var mutator = SourceMutator(seed: UInt64(seed))
  let mutated = mutator.mutateOnce(Array(UnsafeBufferPointer(start: data, count: size)))
  guard mutated.count <= maxSize else { return differential_fuzzing_mutate(data, size, maxSize) }
  mutated.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
  return mutated.count
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(differential_fuzzing_run(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))
