// libFuzzer harness: the inline rewriter's Swift scanner and `rewriteInlineSnapshots(in:recordings:)`
// on arbitrary bytes and mutated test sources. Run with `scripts/fuzz.sh FuzzInlineRewriter SECONDS`.
// (The differential harness, which compares every edit with the swift-syntax rewriter, is in the
// Oracle package: it needs swift-syntax, which this package does not depend on.)
//
// The input is four choice bytes, then the test's source, then optionally a 0xFF byte (never in
// UTF-8) and the snapshot text to record:
//
//   byte 0  which call: the n-th call the scanner reads (below 240), or a position near it, off by
//           a few columns (240 and up), so that calls not found are tried too
//   byte 1  the syntax descriptor: trailing closure offset -1…3, label, a deprecated label
//   byte 2  the snapshot the running test saw: none, or the text of one of the call's closures
//   byte 3  the snapshot to write: none (remove the closure), the text after 0xFF, or one of a
//           few awkward texts (quotes, backslashes, `#`, control characters, CR LF)
//
// Invariants, for any input:
// - neither the scanner nor the rewriter crashes, and both end (libFuzzer's timeout);
// - every position of the source either names a call or not, without a crash;
// - when the rewriter returns a text, that text scans without errors and its closure reads back
//   as the recorded text (the rewriter checks this itself; here it is checked again);
// - every byte outside the call is unchanged: the output is the input's bytes up to the end of
//   the called name, then anything, then the input's bytes from the end of the call.

import Foundation
import FuzzingSupport

@testable import InlineSnapshotTesting

private let awkwardTexts = [
  "Hello, Blob!",
  "",
  "\"\" \\(x) \"# \\#\\ \\##(y) \"\"\"",
  "line\n  indented\n\n\ttab \n",
  "\r\n\r carriage\u{0}\u{7}\u{7F}\u{1B}[0m",
  "\u{FEFF}é\u{301} 👩‍👩‍👧 \u{2028}\u{85}",
]

/// One run of libFuzzer, on one input.
private func fuzzInlineRewriter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard size >= 4 else { return 0 }
  let input = UnsafeBufferPointer(start: data, count: size)
  let choices = Array(input.prefix(4))
  let rest = input.dropFirst(4)
  let split = rest.firstIndex(of: 0xFF)
  let source = String(decoding: rest[..<(split ?? rest.endIndex)], as: UTF8.self)
  let recordedText = split.map { String(decoding: rest[($0 + 1)...], as: UTF8.self) } ?? ""

  let parsed = ParsedSource(source)
  // Every token start is tried as a call's position: no crash, whatever the reader makes of it.
  var calls: [(line: Int, column: Int, call: ScannedCall)] = []
  for token in parsed.tokens {
    let location = parsed.location(of: token.start)
    if let call = parsed.call(line: location.line, column: location.column) {
      require(call.position == token.start, "a call found at another position:\n\(source)")
      require(
        call.start <= call.calleeEnd && call.calleeEnd <= call.position
          && call.position < call.end && call.end <= parsed.bytes.count,
        "a call whose parts are out of order:\n\(source)"
      )
      calls.append((location.line, location.column, call))
    }
  }
  guard !calls.isEmpty else { return 0 }
  let chosen = calls[Int(choices[0]) % calls.count]
  var line = chosen.line
  var column = chosen.column
  if choices[0] >= 240 {
    line += choices[0] & 1 == 0 ? 0 : 1
    column += Int(choices[0] % 8) - 4
  }

  let descriptor = InlineSnapshotSyntaxDescriptor(
    deprecatedTrailingClosureLabels: (choices[1] / 15) % 2 == 1 ? ["matches"] : [],
    trailingClosureLabel: ["matches", "expansion", "diagnostics"][Int(choices[1] / 5) % 3],
    trailingClosureOffset: [0, 1, 2, -1, 3][Int(choices[1]) % 5]
  )
  let candidates = closureTexts(of: chosen.call)
  let expectedChoice = Int(choices[2]) % (candidates.count + 1)
  let expected = expectedChoice == candidates.count ? nil : candidates[expectedChoice]
  let actual: String?
  switch Int(choices[3]) % (awkwardTexts.count + 3) {
  case 0: actual = nil
  case 1: actual = recordedText
  case 2: actual = expected
  case let index: actual = awkwardTexts[index - 3]
  }
  let recording = InlineSnapshotRecording(
    line: line,
    column: column,
    syntaxDescriptor: descriptor,
    expected: expected,
    actual: actual
  )
  guard let output = try? rewriteInlineSnapshots(in: source, recordings: [recording]),
    output != source
  else { return 0 }
  check(output, rewriting: parsed, recording: recording)
  return 0
}

private func check(_ output: String, rewriting parsed: ParsedSource, recording: InlineSnapshotRecording)
{
  let source = String(decoding: parsed.bytes, as: UTF8.self)
  let rewritten = ParsedSource(output)
  require(parsed.scanError == nil, "a source that does not scan was rewritten:\n\(source)")
  require(
    rewritten.scanError == nil,
    "the rewritten source does not scan:\n--- input\n\(source)\n--- output\n\(output)"
  )
  if let actual = recording.actual {
    let call = rewritten.call(line: recording.line, column: recording.column)
    let slot = call.flatMap {
      try? SnapshotSlot(of: $0, descriptor: recording.syntaxDescriptor, line: recording.line)
    }
    let text = slot?.closure?.literalText
    let normalized = SourceStyle(source).newline == "\r\n" ? text?.replacingCRLF() : text
    require(
      normalized == actual,
      "the written closure does not read back:\n--- input\n\(source)\n--- output\n\(output)"
    )
  }
  guard let call = parsed.call(line: recording.line, column: recording.column) else {
    fail("a source was rewritten at a position with no call:\n\(source)")
  }
  let before = parsed.bytes
  let after = Array(output.utf8)
  let region = call.calleeEnd..<call.end
  // The output is the input's bytes before the region, anything, then its bytes after it. (A
  // diff's common prefix and suffix would not do: an insertion that begins with the byte after
  // it, such as " {…}" before "  // comment", seems to start one byte later.)
  require(
    after.count >= region.lowerBound + (before.count - region.upperBound)
      && after.starts(with: before[..<region.lowerBound])
      && after.reversed().starts(with: before[region.upperBound...].reversed()),
    "bytes outside the call (\(region)) changed:\n--- input\n\(source)\n--- output\n\(output)"
  )
}

/// The texts of the call's closures that are a single string literal: what a test may have seen.
private func closureTexts(of call: ScannedCall) -> [String] {
  var closures = call.arguments.compactMap(\.closure)
  closures += [call.trailingClosure].compactMap { $0 }
  closures += call.additionalTrailingClosures.map(\.closure)
  return closures.compactMap(\.literalText)
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
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzInlineRewriter))
