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

/// Writes hunks in the unified format described at ``lineDiff(old:new:costLimit:)``.
///
/// The output's size is counted first, then its UTF-8 bytes are appended to one array, the lines
/// as they are in the texts, and the array becomes the string without being validated again
/// (its bytes are the texts' whole lines and the markers): several times faster than appending
/// strings.
///
/// - Complexity: O(*b*), where *b* is the number of bytes of the lines shown.
func render(_ hunks: [Hunk], old: TextLines, new: TextLines) -> String {
  // Each shown line: a newline, a marker of up to 3 bytes, the line and perhaps a 2-byte `¬`;
  // each header: 14 fixed bytes and four numbers of at most 20 digits.
  var capacity = 0
  for hunk in hunks {
    capacity += 100
    for line in hunk.lines {
      switch line {
      case .context(let index), .removed(let index): capacity += old.byteRange(of: index).count + 6
      case .added(let index): capacity += new.byteRange(of: index).count + 6
      }
    }
  }
  guard capacity > 0 else { return "" }
  var output = DiffWriter(capacity: capacity)
  for (number, hunk) in hunks.enumerated() {
    if number > 0 { output.append(byte: 0x0A) }
    output.append("@@ \u{2212}")
    output.append(hunk.oldStart + 1)
    output.append(",")
    output.append(hunk.oldCount)
    output.append(" +")
    output.append(hunk.newStart + 1)
    output.append(",")
    output.append(hunk.newCount)
    output.append(" @@")
    for line in hunk.lines {
      switch line {
      case .context(let index): output.appendLine(.unchanged, old, index)
      case .removed(let index): output.appendLine(.removed, old, index)
      case .added(let index): output.appendLine(.added, new, index)
      }
    }
  }
  // Valid UTF-8: whole lines of two strings, markers and digits.
  return String(copyingValidUTF8: output.bytes)
}

/// Collects a diff's UTF-8 bytes, in storage sized beforehand by ``render(_:old:new:)``.
private struct DiffWriter {
  enum Marker {
    /// A figure space (U+2007).
    case unchanged
    /// `−` (U+2212).
    case removed
    /// `+`.
    case added
  }

  private(set) var bytes: [UInt8] = []

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  mutating func append(byte: UInt8) {
    bytes.append(byte)
  }

  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// Appends the UTF-8 bytes of a character of two or three bytes, given as its code point.
  @inline(__always)
  mutating func append(scalar: Unicode.Scalar) {
    let value = scalar.value
    if value < 0x800 {
      bytes.append(UInt8(0xC0 | value >> 6))
    } else {
      bytes.append(UInt8(0xE0 | value >> 12))
      bytes.append(UInt8(0x80 | (value >> 6) & 0x3F))
    }
    bytes.append(UInt8(0x80 | value & 0x3F))
  }

  mutating func append(_ number: Int) {
    bytes.append(contentsOf: number.description.utf8)
  }

  /// Appends a newline, the marker and line `index` of `text`, and `¬` after a trailing space.
  mutating func appendLine(_ marker: Marker, _ text: TextLines, _ index: Int) {
    append(byte: 0x0A)
    switch marker {
    case .unchanged: append(scalar: "\u{2007}")
    case .removed: append(scalar: "\u{2212}")
    case .added: append(byte: UInt8(ascii: "+"))
    }
    let range = text.byteRange(of: index)
    bytes.append(contentsOf: text.bytes[range])
    // The byte test is the fast path; the character test agrees with how upstream decides (a
    // space after a prepended mark is part of a longer character).
    if let last = range.last, text.bytes[last] == UInt8(ascii: " "), text.line(index).hasSuffix(" ")
    {
      append(scalar: "¬")
    }
  }
}
