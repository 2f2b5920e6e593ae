/// One hunk of a line diff: a window of the old and new texts around one or more changes.
struct Hunk: Equatable {
  /// The first old line the hunk shows, counted from 0.
  var oldStart: Int
  /// How many old lines (context and removed) the hunk shows.
  var oldCount: Int
  /// The first new line the hunk shows, counted from 0.
  var newStart: Int
  /// How many new lines (context and added) the hunk shows.
  var newCount: Int
  /// The hunk's body in order.
  var lines: [Line]

  enum Line: Equatable {
    /// An unchanged line, by its index in the old text.
    case context(old: Int)
    /// A line of the old text that the new text lacks.
    case removed(old: Int)
    /// A line of the new text that the old text lacks.
    case added(new: Int)
  }
}

/// Groups the differences between two line sequences into hunks, as upstream prints them.
///
/// - A hunk starts with up to `context` unchanged lines before its first change.
/// - Changes separated by at most `2 × context` unchanged lines share a hunk, which shows all of
///   those lines; a longer gap closes the hunk after `context` lines and opens the next hunk
///   `context` lines before the next change.
/// - After the last change of the texts, a hunk shows all remaining lines when there are at most
///   `2 × context` of them, and `context` lines otherwise.
/// - Within one change, removed lines come before added lines.
///
/// - Parameters:
///   - runs: The common runs of the two sequences, in order, as ``MyersDiff`` returns them.
///   - oldCount: The number of old lines.
///   - newCount: The number of new lines.
///   - context: The number of unchanged lines shown around a change.
/// - Complexity: O(*r* + *h*), where *r* is the number of runs and *h* the number of lines the
///   hunks show.
func hunks(runs: [CommonRun], oldCount: Int, newCount: Int, context: Int = 4) -> [Hunk] {
  // The changes: the gaps between common runs.
  var changes: [(old: Range<Int>, new: Range<Int>)] = []
  var oldCursor = 0
  var newCursor = 0
  for run in runs where run.count > 0 {
    if run.oldStart > oldCursor || run.newStart > newCursor {
      changes.append((oldCursor..<run.oldStart, newCursor..<run.newStart))
    }
    oldCursor = run.oldStart + run.count
    newCursor = run.newStart + run.count
  }
  if oldCursor < oldCount || newCursor < newCount {
    changes.append((oldCursor..<oldCount, newCursor..<newCount))
  }

  var result: [Hunk] = []
  var index = 0
  while index < changes.count {
    // Context before the hunk's first change: the unchanged lines since the previous change.
    let first = changes[index]
    let previousOldEnd = index > 0 ? changes[index - 1].old.upperBound : 0
    let leading = min(context, first.old.lowerBound - previousOldEnd)
    var hunk = Hunk(
      oldStart: first.old.lowerBound - leading,
      oldCount: 0,
      newStart: first.new.lowerBound - leading,
      newCount: 0,
      lines: []
    )
    func appendContext(_ oldLines: Range<Int>) {
      for line in oldLines { hunk.lines.append(.context(old: line)) }
      hunk.oldCount += oldLines.count
      hunk.newCount += oldLines.count
    }
    appendContext((first.old.lowerBound - leading)..<first.old.lowerBound)

    while true {
      let change = changes[index]
      for line in change.old { hunk.lines.append(.removed(old: line)) }
      for line in change.new { hunk.lines.append(.added(new: line)) }
      hunk.oldCount += change.old.count
      hunk.newCount += change.new.count

      let nextOldStart = index + 1 < changes.count ? changes[index + 1].old.lowerBound : oldCount
      let gap = nextOldStart - change.old.upperBound
      if gap <= 2 * context {
        appendContext(change.old.upperBound..<nextOldStart)
        index += 1
        if index == changes.count { break }
      } else {
        appendContext(change.old.upperBound..<(change.old.upperBound + context))
        index += 1
        break
      }
    }
    result.append(hunk)
  }
  return result
}
