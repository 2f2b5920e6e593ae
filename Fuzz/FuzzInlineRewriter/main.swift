// libFuzzer harness: `rewriteInlineSnapshots(in:recordings:)` on mutated test sources. Run with
// `scripts/fuzz.sh FuzzInlineRewriter SECONDS`.
//
// The input is four choice bytes, then the test's source, then optionally a 0xFF byte (never in
// UTF-8) and the snapshot text to record:
//
//   byte 0  which call: the n-th call of the source (below 240), or a position near it, off by
//           a few columns (240 and up), so that calls not found are tried too
//   byte 1  the syntax descriptor: trailing closure offset -1…3, label, a deprecated label
//   byte 2  the snapshot the running test saw: none, or the text of one of the call's closures
//   byte 3  the snapshot to write: none (remove the closure), the text after 0xFF, or one of a
//           few awkward texts (quotes, backslashes, `#`, control characters, CR LF)
//
// Invariants, for any input:
// - the rewriter never crashes;
// - when it returns a text, that text parses without errors. It refuses sources that do not
//   parse, so "no more errors than the input" reduces to "none"; in addition, the diagnostics of
//   SwiftParserDiagnostics (which also sees lexer errors such as bad escapes in other literals)
//   may not grow: the edit may remove an error with the closure it replaces, never add one;
// - every byte outside the call's argument list and closures is unchanged: the output is the
//   input's bytes up to the end of the called name, then anything, then the input's bytes from
//   the end of the call.
//
// Sources with `[` nested more than 12 deep are skipped: swift-syntax 603's parser takes time
// exponential in that depth, even for valid code (in this sanitized build, 18 levels of
// `let x: [[…[Int]…]]` take 3 s, and each level doubles it): a problem of the dependency, not of
// the rewriter, that would make every such input a timeout. See Documentation/Reliability.md.

import Foundation
import FuzzingSupport
import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

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
  let sourceBytes = rest[..<(split ?? rest.endIndex)]
  guard bracketDepth(sourceBytes) <= 12 else { return -1 }  // Not added to the corpus.
  let source = String(decoding: sourceBytes, as: UTF8.self)
  let recordedText = split.map { String(decoding: rest[($0 + 1)...], as: UTF8.self) } ?? ""

  let tree = Parser.parse(source: source)
  let converter = SourceLocationConverter(fileName: "", tree: tree)
  let calls = CallCollector(viewMode: .sourceAccurate).calls(in: tree)
  guard !calls.isEmpty else { return 0 }
  let call = calls[Int(choices[0]) % calls.count]
  var location = converter.location(for: call.calledExpression.endPosition)
  if choices[0] >= 240 {
    location = SourceLocation(
      line: location.line + (choices[0] & 1 == 0 ? 0 : 1),
      column: location.column + Int(choices[0] % 8) - 4,
      offset: 0,
      file: ""
    )
  }

  let descriptor = InlineSnapshotSyntaxDescriptor(
    deprecatedTrailingClosureLabels: (choices[1] / 15) % 2 == 1 ? ["matches"] : [],
    trailingClosureLabel: ["matches", "expansion", "diagnostics"][Int(choices[1] / 5) % 3],
    trailingClosureOffset: [0, 1, 2, -1, 3][Int(choices[1]) % 5]
  )
  let candidates = closureTexts(of: call)
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
    line: location.line,
    column: location.column,
    syntaxDescriptor: descriptor,
    expected: expected,
    actual: actual
  )

  guard let output = try? rewriteInlineSnapshots(in: source, recordings: [recording]) else {
    return 0
  }
  check(output, rewriting: source, tree: tree, converter: converter, recording: recording)
  return 0
}

private func check(
  _ output: String,
  rewriting source: String,
  tree: SourceFileSyntax,
  converter: SourceLocationConverter,
  recording: InlineSnapshotRecording
) {
  guard output != source else { return }
  let outputTree = Parser.parse(source: output)
  require(!tree.hasError, "a source with syntax errors was rewritten:\n\(source)")
  require(
    !outputTree.hasError,
    "the rewritten source has syntax errors:\n--- input\n\(source)\n--- output\n\(output)"
  )
  let errorsBefore = errorCount(in: tree)
  let errorsAfter = errorCount(in: outputTree)
  require(
    errorsAfter <= errorsBefore,
    "\(errorsAfter) diagnostics after, \(errorsBefore) before:\n--- input\n\(source)\n"
      + "--- output\n\(output)"
  )

  let before = Array(source.utf8)
  let after = Array(output.utf8)
  // Every call the recording's position names: the rewriter may take any of them.
  let regions = CallCollector(viewMode: .sourceAccurate).calls(in: tree)
    .filter {
      let start = converter.location(for: $0.calledExpression.endPosition)
      return start.line == recording.line && start.column == recording.column
    }
    .map {
      $0.calledExpression.endPositionBeforeTrailingTrivia
        .utf8Offset..<$0.endPositionBeforeTrailingTrivia.utf8Offset
    }
  // The output is the input's bytes before the region, anything, then its bytes after the
  // region. (A diff's common prefix and suffix would not do: an insertion that begins with the
  // byte after it, such as " {…}" before "  // comment", seems to start one byte later.)
  require(
    regions.contains { region in
      after.count >= region.lowerBound + (before.count - region.upperBound)
        && after.starts(with: before[..<region.lowerBound])
        && after.reversed().starts(with: before[region.upperBound...].reversed())
    },
    "bytes outside the call (\(regions)) changed:\n--- input\n\(source)\n--- output\n\(output)"
  )
}

/// The deepest nesting of `[`, counted on bytes without regard to strings or comments.
private func bracketDepth(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
  var depth = 0
  var deepest = 0
  for byte in bytes {
    if byte == UInt8(ascii: "[") {
      depth += 1
      deepest = max(deepest, depth)
    } else if byte == UInt8(ascii: "]") {
      depth = max(0, depth - 1)
    }
  }
  return deepest
}

/// The error diagnostics SwiftParserDiagnostics reports for a tree.
private func errorCount(in tree: SourceFileSyntax) -> Int {
  ParseDiagnosticsGenerator.diagnostics(for: tree).filter { $0.diagMessage.severity == .error }
    .count
}

/// The texts of the call's closures that are a single string literal: what a test may have seen.
private func closureTexts(of call: FunctionCallExprSyntax) -> [String] {
  var closures = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
  closures += [call.trailingClosure].compactMap { $0 }
  closures += call.additionalTrailingClosures.map(\.closure)
  return closures.compactMap { closure in
    guard closure.statements.count == 1,
      let literal = closure.statements.first?.item.as(StringLiteralExprSyntax.self)
    else { return nil }
    return literal.representedLiteralValue
  }
}

/// Every function call of a tree, in source order.
private final class CallCollector: SyntaxVisitor {
  private var found: [FunctionCallExprSyntax] = []

  func calls(in tree: SourceFileSyntax) -> [FunctionCallExprSyntax] {
    walk(tree)
    return found
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    found.append(node)
    return .visitChildren
  }
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
