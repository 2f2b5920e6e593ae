import Foundation
import Testing

@testable import InlineSnapshotTesting

/// The folder of this test target's fixtures.
let fixturesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()
  .deletingLastPathComponent()
  .appendingPathComponent("__Fixtures__", isDirectory: true)

/// The text of `__Fixtures__/Rewriting/<name>.swift.txt`.
func rewritingFixture(_ name: String) throws -> String {
  let url = fixturesFolder.appendingPathComponent("Rewriting/\(name).swift.txt")
  return try String(contentsOf: url, encoding: .utf8)
}

/// The `#line` and `#column` a call to `name` gets: the position right after the name and any
/// spaces, where its argument list or first trailing closure starts. `occurrence` counts from 1.
func callPosition(
  of name: String,
  in source: String,
  occurrence: Int = 1,
  sourceLocation: SourceLocation = #_sourceLocation
) -> (line: Int, column: Int) {
  var line = 1
  var found = 0
  for text in source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
    let bytes = Array(text)
    let nameBytes = Array(name.utf8)
    var index = 0
    while index + nameBytes.count <= bytes.count {
      if Array(bytes[index..<index + nameBytes.count]) == nameBytes {
        found += 1
        if found == occurrence {
          var end = index + nameBytes.count
          while end < bytes.count, bytes[end] == UInt8(ascii: " ") { end += 1 }
          return (line, end + 1)
        }
        index += nameBytes.count
      } else {
        index += 1
      }
    }
    line += 1
  }
  Issue.record("No call number \(occurrence) to \(name)", sourceLocation: sourceLocation)
  return (0, 0)
}

/// A recording for the `occurrence`-th call to `name` in `source`.
func recording(
  _ name: String = "assertInlineSnapshot",
  in source: String,
  occurrence: Int = 1,
  descriptor: InlineSnapshotSyntaxDescriptor = InlineSnapshotSyntaxDescriptor(),
  expected: String? = nil,
  actual: String?
) -> InlineSnapshotRecording {
  let position = callPosition(of: name, in: source, occurrence: occurrence)
  return InlineSnapshotRecording(
    line: position.line,
    column: position.column,
    syntaxDescriptor: descriptor,
    expected: expected,
    actual: actual
  )
}

/// The recordings of the `SeveralPerFunction` fixture: four calls, one of them re-recorded.
func severalPerFunctionRecordings(in input: String) -> [InlineSnapshotRecording] {
  [
    recording(in: input, occurrence: 1, actual: "1"),
    recording(in: input, occurrence: 2, expected: "two", actual: "2"),
    recording(in: input, occurrence: 3, actual: "▿ 2 elements\n  - 3\n  - 4"),
    recording(in: input, occurrence: 4, actual: "5"),
  ]
}

/// The error `body` throws, or `nil`.
func rewriteError(
  _ body: () throws(InlineSnapshotRewriteError) -> String
) -> InlineSnapshotRewriteError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
