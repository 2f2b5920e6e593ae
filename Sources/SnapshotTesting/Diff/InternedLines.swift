import RunRecord

/// The lines of one text, kept as byte offsets into a copy of its UTF-8.
///
/// A text is cut at every `"\n"` (byte 0x0A), so a text with `k` newlines has `k + 1` lines and
/// the empty text has one empty line. A `"\r"` before the newline stays part of its line, so
/// CRLF texts are compared line by line too.
struct TextLines {
  /// The text's UTF-8 bytes.
  let bytes: [UInt8]
  /// Where each line starts, followed by one past the end of the text plus one, so that line
  /// `i` spans `lineStarts[i] ..< lineStarts[i + 1] - 1`.
  let lineStarts: [Int]

  /// Splits a text into lines.
  ///
  /// - Complexity: O(*n*), where *n* is the text's length in bytes.
  init(_ text: String) {
    let bytes = Array(text.utf8)
    var lineStarts = [0]
    lineStarts.reserveCapacity(bytes.count / 16 + 2)
    let span = bytes.span
    for offset in span.indices where span[offset] == 0x0A {
      lineStarts.append(offset + 1)
    }
    lineStarts.append(bytes.count + 1)
    self.bytes = bytes
    self.lineStarts = lineStarts
  }

  /// The number of lines, at least one.
  var count: Int { lineStarts.count - 1 }

  /// The byte range of line `index`, without its newline.
  func byteRange(of index: Int) -> Range<Int> {
    lineStarts[index]..<(lineStarts[index + 1] - 1)
  }

  /// The text of line `index`, without its newline.
  func line(_ index: Int) -> String {
    String(decoding: bytes[byteRange(of: index)], as: UTF8.self)
  }
}

/// Two texts whose lines are replaced by integer identifiers: equal lines share an identifier.
///
/// Lines are equal when their bytes are equal. (Upstream compares lines as Swift strings, under
/// canonical equivalence; two lines that differ only in Unicode normalisation are reported as a
/// change here, which is what the bytes on disk say.)
struct InternedLines {
  let old: TextLines
  let new: TextLines
  /// The identifier of each line of the old text.
  let oldIDs: [Int32]
  /// The identifier of each line of the new text.
  let newIDs: [Int32]
  /// The number of distinct lines in both texts; identifiers are `0 ..< distinctCount`.
  let distinctCount: Int

  /// Splits and interns two texts.
  ///
  /// - Complexity: O(*n* + *m*) expected, where *n* and *m* are the texts' lengths in bytes.
  init(old oldText: String, new newText: String) {
    let old = TextLines(oldText)
    let new = TextLines(newText)
    var table = LineTable(capacity: old.count + new.count)
    self.oldIDs = table.intern(old, textIndex: 0)
    self.newIDs = table.intern(new, textIndex: 1)
    self.old = old
    self.new = new
    self.distinctCount = table.distinctCount
  }
}

/// An open-addressing hash set of lines, keyed by their bytes, handing out dense identifiers.
private struct LineTable {
  /// A line that was seen first: where its bytes are, and its hash.
  private struct Entry {
    var textIndex: Int32
    var start: Int
    var count: Int
    var hash: UInt64
  }

  private var slots: [Int32]
  private var entries: [Entry] = []
  private var texts: [[UInt8]] = []
  private let mask: Int

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    mask = size - 1
    entries.reserveCapacity(capacity)
  }

  var distinctCount: Int { entries.count }

  /// Returns the identifier of each line of `text`, adding new lines to the table.
  mutating func intern(_ text: TextLines, textIndex: Int32) -> [Int32] {
    texts.append(text.bytes)
    var ids = [Int32]()
    ids.reserveCapacity(text.count)
    for index in 0..<text.count {
      let range = text.byteRange(of: index)
      ids.append(id(of: text.bytes, range, textIndex: textIndex))
    }
    return ids
  }

  private mutating func id(
    of bytes: [UInt8],
    _ range: Range<Int>,
    textIndex: Int32
  ) -> Int32 {
    let hash = Self.hash(bytes.span, range)
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let candidate = slots[slot]
      if candidate < 0 {
        let id = Int32(entries.count)
        entries.append(
          Entry(textIndex: textIndex, start: range.lowerBound, count: range.count, hash: hash)
        )
        slots[slot] = id
        return id
      }
      let entry = entries[Int(candidate)]
      if entry.hash == hash, entry.count == range.count,
        equalBytes(entry, bytes, range, textIndex: textIndex)
      {
        return candidate
      }
      slot = (slot + 1) & mask
    }
  }

  private func equalBytes(
    _ entry: Entry,
    _ bytes: [UInt8],
    _ range: Range<Int>,
    textIndex: Int32
  ) -> Bool {
    if range.isEmpty { return true }
    let earlier = entry.start..<entry.start + range.count
    if entry.textIndex == textIndex {
      return bytes.span.extracting(earlier).hasSameBytes(as: bytes.span.extracting(range))
    }
    let other = texts[Int(entry.textIndex)]
    return other.span.extracting(earlier).hasSameBytes(as: bytes.span.extracting(range))
  }

  /// The eight bytes from `offset`, as a little-endian word; the caller keeps them in the span.
  @inline(__always)
  private static func word(_ bytes: Span<UInt8>, at offset: Int) -> UInt64 {
    // One bounds check for the eight reads; the optimiser merges the bytes into one load.
    precondition(offset >= 0 && offset + 8 <= bytes.count)
    var word: UInt64 = 0
    for index in 0..<8 {
      word |= UInt64(bytes[offset &+ index]) &<< UInt64(8 &* index)
    }
    return word
  }

  /// A fast, non-cryptographic hash of a byte range, eight bytes at a time.
  private static func hash(_ bytes: Span<UInt8>, _ range: Range<Int>) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash = UInt64(truncatingIfNeeded: range.count) &* multiplier
    var offset = range.lowerBound
    while offset + 8 <= range.upperBound {
      hash = (hash ^ word(bytes, at: offset)) &* multiplier
      hash ^= hash >> 29
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < range.upperBound {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    hash = (hash ^ tail) &* multiplier
    hash ^= hash >> 32
    return hash
  }
}
