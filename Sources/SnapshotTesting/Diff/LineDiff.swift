/// The line diff of two texts, in the unified format that swift-snapshot-testing prints.
///
/// ```swift
/// lineDiff(old: "a\nb\nc", new: "a\nB\nc")
/// // "@@ −1,3 +1,3 @@\n\u{2007}a\n−b\n+B\n\u{2007}c"
/// ```
///
/// Each hunk opens with `@@ −a,b +c,d @@`: `a` and `c` are the 1-based numbers of the hunk's first
/// old and new lines (1 even when the hunk shows no old or new lines), `b` and `d` how many old and
/// new lines it shows. Removed lines start with `−` (U+2212), added lines with `+`, unchanged
/// lines with a figure space (U+2007), and a line that ends in a space gets a `¬` after it so
/// that the space can be seen. Lines are joined with `"\n"`, without a final newline. See
/// ``hunks(runs:oldCount:newCount:context:)`` for how hunks are cut.
///
/// - Returns: The diff, or `nil` when the texts have the same lines.
/// - Complexity: O((*n* + *m*) · *d*) time and O(*n* + *m*) memory, where *n* and *m* are the
///   texts' sizes and *d* the number of changed lines; close to O(*n* + *m* + *d*²) when changes
///   are few. An unchanged text costs O(*n*).
func lineDiff(old: String, new: String) -> String? {
  let lines = InternedLines(old: old, new: new)
  let runs = MyersDiff.commonRuns(
    old: lines.oldIDs,
    new: lines.newIDs,
    distinctCount: lines.distinctCount
  )
  let hunks = hunks(runs: runs, oldCount: lines.old.count, newCount: lines.new.count)
  guard !hunks.isEmpty else { return nil }
  return render(hunks, old: lines.old, new: lines.new)
}

private let minusSign = "\u{2212}"
private let plusSign = "+"
private let figureSpace = "\u{2007}"
private let visibleTrailingSpace = "¬"

/// Writes hunks in the unified format described at ``lineDiff(old:new:)``.
func render(_ hunks: [Hunk], old: TextLines, new: TextLines) -> String {
  var output = ""
  func append(_ marker: String, _ text: TextLines, _ index: Int) {
    output += "\n"
    output += marker
    let range = text.byteRange(of: index)
    let line = String(decoding: text.bytes[range], as: UTF8.self)
    output += line
    // The byte test is the fast path; the character test agrees with how upstream decides.
    if let last = range.last, text.bytes[last] == UInt8(ascii: " "), line.hasSuffix(" ") {
      output += visibleTrailingSpace
    }
  }
  for (number, hunk) in hunks.enumerated() {
    if number > 0 { output += "\n" }
    output += "@@ \(minusSign)\(hunk.oldStart + 1),\(hunk.oldCount) "
    output += "\(plusSign)\(hunk.newStart + 1),\(hunk.newCount) @@"
    for line in hunk.lines {
      switch line {
      case .context(let index): append(figureSpace, old, index)
      case .removed(let index): append(minusSign, old, index)
      case .added(let index): append(plusSign, new, index)
      }
    }
  }
  return output
}
