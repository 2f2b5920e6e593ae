import Foundation
import Testing
import TestSupport

@testable import SnapshotTesting

/// Applies a diff printed by `Diffing<String>.lines` to the old text's lines.
///
/// Reads the printed form back (headers, markers, the `¬` after a trailing space), so it checks
/// the format as well as the hunks. Returns `nil` when the diff does not fit the old text.
func applyPrintedDiff(_ diff: String, to old: String) -> String? {
  let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  var result: [String] = []
  var oldCursor = 0
  var expectedOld = 0
  for printed in diff.split(separator: "\n", omittingEmptySubsequences: false) {
    if printed.hasPrefix("@@ \u{2212}") {
      let numbers = printed.dropFirst(4).split(whereSeparator: { ",+ @".contains($0) })
      guard numbers.count == 4, let oldStart = Int(numbers[0]), let oldCount = Int(numbers[1])
      else { return nil }
      let start = oldStart - 1
      guard start >= oldCursor, expectedOld == 0 else { return nil }
      result += oldLines[oldCursor..<start]
      oldCursor = start
      expectedOld = oldCount
      continue
    }
    guard let marker = printed.unicodeScalars.first else { return nil }
    var text = String(printed.unicodeScalars.dropFirst())
    if text.hasSuffix(" ¬") { text.removeLast() }
    switch marker {
    case "\u{2007}", "\u{2212}":
      guard oldCursor < oldLines.count, oldLines[oldCursor] == text else { return nil }
      if marker == "\u{2007}" { result.append(text) }
      oldCursor += 1
      expectedOld -= 1
    case "+":
      result.append(text)
    default:
      return nil
    }
  }
  guard expectedOld == 0 else { return nil }
  result += oldLines[oldCursor...]
  return result.joined(separator: "\n")
}

@Suite struct RoundTripTests {
  /// Lines from a small alphabet, with empty lines and trailing spaces, so that lines repeat.
  static let vocabulary = ["a", "b", "c", "", " ", "a ", "▿ item", "  - id: 1", "}"]

  func randomText(lines: Int, using generator: inout SplitMix64) -> [String] {
    (0..<lines).map { _ in
      Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &generator)]
    }
  }

  @Test func applyingTheDiffToOldGivesNew() throws {
    var generator = SplitMix64(state: 42)
    for round in 0..<500 {
      let oldLines = randomText(lines: Int.random(in: 0...40, using: &generator), using: &generator)
      var newLines = oldLines
      if round % 3 == 0 {
        newLines = randomText(lines: Int.random(in: 0...40, using: &generator), using: &generator)
      } else {
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
          let position = Int.random(in: 0...newLines.count, using: &generator)
          if Bool.random(using: &generator), position < newLines.count {
            newLines.remove(at: position)
          } else {
            newLines.insert(
              Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &generator)],
              at: position
            )
          }
        }
      }
      let old = oldLines.joined(separator: "\n")
      let new = newLines.joined(separator: "\n")
      guard let diff = lineDiff(old: old, new: new) else {
        #expect(old == new)
        continue
      }
      #expect(applyPrintedDiff(diff, to: old) == new, "old: \(oldLines) new: \(newLines)")
    }
  }

  /// The removed and added lines of a printed diff.
  func changeCounts(_ diff: String) -> (removed: Int, added: Int) {
    var removed = 0
    var added = 0
    for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("@@") { continue }
      if line.hasPrefix("\u{2212}") { removed += 1 }
      if line.hasPrefix("+") { added += 1 }
    }
    return (removed, added)
  }

  @Test func fiftyThousandLineDumpFinishesWithAMinimalDiff() throws {
    // A dump of 10,000 records of 5 lines, most of them repeated; 1% of lines changed.
    var old = ["▿ 10000 elements"]
    for index in 0..<10_000 {
      old += [
        "  ▿ Record", "    - id: \(index % 7)", "    - isActive: true",
        "    - name: \"record\"", "    - score: 0.5",
      ]
    }
    var new = old
    var changed = 0
    for line in stride(from: 57, to: new.count, by: 100) {
      new[line] += " (edited)"
      changed += 1
    }
    let diff = try #require(
      lineDiff(old: old.joined(separator: "\n"), new: new.joined(separator: "\n"))
    )
    let counts = changeCounts(diff)
    #expect(counts.removed == changed)
    #expect(counts.added == changed)
    #expect(applyPrintedDiff(diff, to: old.joined(separator: "\n")) == new.joined(separator: "\n"))
  }

  @Test func fiftyThousandLinesAgainstEmpty() throws {
    let old = (0..<50_000).map { "line \($0 % 100)" }.joined(separator: "\n")
    let diff = try #require(lineDiff(old: old, new: ""))
    #expect(changeCounts(diff) == (50_000, 1))
  }
}
