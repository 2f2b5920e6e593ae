/// Moves recordings made against `original` onto `current`, a later version of the same file, or
/// returns `nil` when that cannot be done safely.
///
/// Another test process of the same run (the other half of `swift test`, a `--parallel` worker)
/// may have written its own snapshots into the file first, shifting lines. Each recording's call
/// (its lines, from the first line of the call to the end of its last closure) must then appear
/// in `current` unchanged and exactly once; the recording moves by as many lines as its call did.
/// The rewrite that follows still checks every call and closure at its new place.
///
/// - Complexity: O(*n* · *r*) for *n* lines and *r* recordings; `original` is parsed once.
func remapRecordings(
  _ recordings: [InlineSnapshotRecording],
  from original: String,
  to current: String
) -> [InlineSnapshotRecording]? {
  if original == current { return recordings }
  let parsed = ParsedSource(original)
  let originalLines = lines(of: original)
  let currentLines = lines(of: current)
  var remapped: [InlineSnapshotRecording] = []
  for recording in recordings {
    guard let call = parsed.call(line: recording.line, column: recording.column) else {
      return nil
    }
    let first = min(recording.line, parsed.line(of: call.start))
    let last = parsed.line(of: call.end)
    guard first >= 1, last <= originalLines.count, first <= last else { return nil }
    let block = Array(originalLines[(first - 1)..<last])
    let matches = occurrences(of: block, in: currentLines)
    guard matches.count == 1, let start = matches.first else { return nil }
    var moved = recording
    moved.line += (start + 1) - first
    remapped.append(moved)
  }
  return remapped
}

/// The file's lines, split at line feeds only (a CR stays part of its line).
private func lines(of text: String) -> [Substring.UTF8View] {
  text.utf8[...].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
}

/// The 0-based starting indices of `block` in `lines`.
private func occurrences(
  of block: [Substring.UTF8View],
  in lines: [Substring.UTF8View]
) -> [Int] {
  guard !block.isEmpty, block.count <= lines.count else { return [] }
  var found: [Int] = []
  for start in 0...(lines.count - block.count)
  where block.indices.allSatisfy({ lines[start + $0].elementsEqual(block[$0]) }) {
    found.append(start)
  }
  return found
}
