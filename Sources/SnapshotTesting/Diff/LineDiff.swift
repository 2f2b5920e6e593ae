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
/// The diff is minimal (fewest removed plus added lines) unless more than twice
/// ``MyersDiff/costLimit(oldCount:newCount:)`` lines (8,192 or more) changed among lines that
/// repeat; then it may be somewhat longer than minimal, and is still correct (see ``MyersDiff``).
///
/// - Parameter costLimit: Overrides ``MyersDiff/costLimit(oldCount:newCount:)``; for tests.
/// - Returns: The diff, or `nil` when the texts have the same lines.
/// - Complexity: O((*n* + *m*) · min(*d*, *L*)) time and O(*n* + *m*) memory, where *n* and *m*
///   are the texts' sizes, *d* the number of changed lines and *L* the cost limit; close to
///   O(*n* + *m* + *d*²) when changes are few. An unchanged text costs O(*n*).
func lineDiff(old: String, new: String, costLimit: Int? = nil) -> String? {
  let lines = InternedLines(old: old, new: new)
  let runs = MyersDiff.commonRuns(
    old: lines.oldIDs,
    new: lines.newIDs,
    distinctCount: lines.distinctCount,
    costLimit: costLimit
  )
  let hunks = hunks(runs: runs, oldCount: lines.old.count, newCount: lines.new.count)
  guard !hunks.isEmpty else { return nil }
  return render(hunks, old: lines.old, new: lines.new)
}
