import Foundation
import RunRecord
import Testing

@testable import InlineSnapshotTesting

/// The parse a pass over a file shares.
@Suite struct ParsedSourceTests {
  @Test func aPassParsesTheFileOnceWhateverTheNumberOfRecordings() throws {
    let input = try rewritingFixture("SeveralPerFunction.input")
    let recordings = severalPerFunctionRecordings(in: input)
    let parses = ParsedTexts()
    let output = try TestHooks.with(ParsedSource.ParseObserver.self, { parses.append($0) }) {
      try rewriteInlineSnapshots(in: input, recordings: recordings)
    }
    let texts = parses.texts
    // The source once, the result once to check it; the rest are single calls read back.
    #expect(texts.filter { $0 == input }.count == 1)
    #expect(texts.filter { $0 == output }.count == 1)
    #expect(
      texts.filter { $0 != input && $0 != output }.allSatisfy {
        $0.hasPrefix("assertInlineSnapshot(")
      }
    )
  }

  /// Recording is linear in the recordings of a file: each assertion's dry run reads only its
  /// call, and the pass at exit reuses the run's scan of the file. Before, every recording
  /// dry-ran all the earlier ones over the whole file, scanning it twice per recording.
  @Test func recordingsInOneFileScanItOnceAndReadOnlyTheirCalls() throws {
    let count = 30
    let source =
      "func f() {\n"
      + (0..<count).map { "  assertInlineSnapshot(of: \"\($0)\", as: .lines)\n" }.joined() + "}\n"
    let run = try FixtureRun(source: source)
    let parses = ParsedTexts()
    TestHooks.with(ParsedSource.ParseObserver.self, { parses.append($0) }) {
      withKnownIssue {
        run.run {
          for index in 0..<count {
            assertInlineSnapshot(
              of: "\(index)", as: .lines, file: FixtureRun.fileName, line: UInt(2 + index),
              column: 23)
          }
        }
      }
      #expect(run.writePending().isEmpty)
    }
    let written = try run.text()
    #expect(written.components(separatedBy: "\"\"\"").count == 2 * count + 1)
    let texts = parses.texts
    #expect(texts.filter { $0 == source }.count == 1)
    #expect(texts.filter { $0 == written }.count == 1)
    // The rest are single calls, each read back after its edit.
    let others = texts.filter { $0 != source && $0 != written }
    #expect(others.allSatisfy { $0.hasPrefix("assertInlineSnapshot(") })
    #expect(others.count <= 2 * count)
  }

  @Test func failuresInOneFileScanItOnce() throws {
    // Three calls, each failing where its closure starts.
    let call = { (n: Int) in
      "  assertInlineSnapshot(of: \(n), as: .lines) {\n    \"\"\"\n    \(n)\n    \"\"\"\n  }\n"
    }
    let source = "func f() {\n" + (1...3).map(call).joined() + "}\n"
    let run = try FixtureRun(source: source)
    let parses = ParsedTexts()
    let descriptor = InlineSnapshotSyntaxDescriptor()
    TestHooks.with(ParsedSource.ParseObserver.self, { parses.append($0) }) {
      withKnownIssue {
        run.run {
          for index in 0..<3 {
            descriptor.fail(
              "no match", fileID: "Fixture.swift", file: FixtureRun.fileName,
              line: UInt(2 + 5 * index), column: 23)
          }
        }
      }
    }
    #expect(parses.texts.filter { $0 == source }.count == 1)
  }

  @Test func findsCallsByTheirPositionAndNamesTheFilesLines() {
    let source = "f {\n  assertInlineSnapshot(of: g(1), as: .lines) {\n    \"x\"\n  }\n}\n"
    let parsed = ParsedSource(source)
    let call = parsed.call(line: 2, column: 23)
    #expect(call?.callee == "assertInlineSnapshot")
    #expect(call.map { parsed.line(of: $0.end) } == 4)
    #expect(parsed.call(line: 2, column: 29)?.callee == "g")
    #expect(parsed.call(line: 2, column: 22) == nil)
    #expect(parsed.firstSyntaxErrorLine == nil)

    // A call's own text, parsed where it stands, keeps the file's lines and columns.
    let callText = "assertInlineSnapshot(of: g(1), as: .lines) {\n    \"x\"\n  }"
    let reparsed = ParsedSource(callText, origin: .init(offset: 6, line: 2, column: 3))
    #expect(reparsed.call(line: 2, column: 23) != nil)
    #expect(reparsed.call(line: 2, column: 29) != nil)
  }

  /// Found by the differential test on swift-syntax's own suite: `.pair(let a, …)` in a `case`
  /// is a pattern, and a closure written after it would not parse.
  @Test func aPatternThatBindsNamesIsNoCall() {
    let source = """
      switch (x, y) {
      case (.pair(let a, 1), .single(var b)): f(a, b)
      case (.pair(count: 2, name: "let"), .other(let: 1)): g()
      }
      """
    let parsed = ParsedSource(source)
    #expect(parsed.call(line: 2, column: 12) == nil)
    #expect(parsed.call(line: 2, column: 31) == nil)
    #expect(parsed.call(line: 2, column: 42)?.callee == "f")
    // A label named `let` and a string saying "let" bind nothing.
    #expect(parsed.call(line: 3, column: 12)?.callee == ".pair")
    #expect(parsed.call(line: 3, column: 43)?.callee == ".other")
  }

  @Test func namesTheLineOfTheFirstSyntaxError() {
    #expect(ParsedSource("let a = 1\nfunc f( {\n").firstSyntaxErrorLine == 2)
  }
}

/// The texts parsed, from any thread.
private final class ParsedTexts: @unchecked Sendable {
  private let lock = NSLock()
  private var parsed: [String] = []

  var texts: [String] { lock.withLock { parsed } }

  func append(_ text: String) { lock.withLock { parsed.append(text) } }
}
