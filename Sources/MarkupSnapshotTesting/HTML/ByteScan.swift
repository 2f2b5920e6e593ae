/// Scanning bytes eight at a time (SWAR: one 64-bit word holds eight bytes), for the direct
/// printer's hot loops: where the next `<`, quote or whitespace is.
///
/// A mask has the high bit of each byte that may be a hit. Only its lowest set bit is exact:
/// the subtraction that finds a byte borrows through the bytes above a hit, which may then look
/// like hits too. So a scan takes the first candidate and the caller checks that byte.
enum ByteScan {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The eight bytes at `offset` as one word, the first in the lowest byte; the caller makes sure
  /// that `offset + 8 <= bytes.count`. Read byte by byte, each checked, rather than loaded
  /// through a raw pointer.
  @inline(__always)
  static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    precondition(offset >= 0 && offset &+ 8 <= bytes.count, "Index out of range")
    var word: UInt64 = 0
    for position in 0..<8 {
      word |= UInt64(bytes[offset &+ position]) &<< UInt64(8 &* position)
    }
    return word
  }

  /// High bits at the bytes of `word` equal to `byte` (exact at the lowest).
  @inline(__always)
  static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & highs
  }

  /// High bits at the bytes of `word` below `bound` (at most 0x80; exact at the lowest).
  @inline(__always)
  static func below(_ word: UInt64, _ bound: UInt8) -> UInt64 {
    (word &- ones &* UInt64(bound)) & ~word & highs
  }

  /// High bits at the bytes that may be whitespace: the control characters and the space.
  @inline(__always)
  static func spaceCandidates(_ word: UInt64) -> UInt64 { below(word, 0x21) }

  /// High bits at the ASCII capitals of `word`: `word | capitals(word) >> 2` is it lowercased.
  /// Exact for ASCII bytes, and for those before the first non-ASCII one (adding to an ASCII
  /// byte carries into no other; a carry goes only to the bytes after).
  @inline(__always)
  static func capitals(_ word: UInt64) -> UInt64 {
    (word &+ ones &* 0x3F) & ~(word &+ ones &* 0x25) & highs
  }

  /// The position in its word of a mask's lowest byte: 8 for an empty mask.
  @inline(__always)
  static func first(_ mask: UInt64) -> Int { mask.trailingZeroBitCount &>> 3 }

  /// The offset of the first byte from `start` before `end` that `candidates` marks in its word
  /// and `isHit` accepts for itself, or `end`. `candidates` must mark every hit (it may mark
  /// more); `isHit` decides.
  @inline(__always)
  static func firstHit(
    in bytes: [UInt8],
    from start: Int,
    to end: Int,
    candidates: (UInt64) -> UInt64,
    isHit: (UInt8) -> Bool
  ) -> Int {
    var position = start
    while position &+ 8 <= end {
      var mask = candidates(word(bytes, at: position))
      while mask != 0 {
        let found = position &+ first(mask)
        if isHit(bytes[found]) { return found }
        mask &= mask &- 1  // The next candidate: above an exact one, it may be a false one.
      }
      position &+= 8
    }
    while position < end {
      if isHit(bytes[position]) { return position }
      position &+= 1
    }
    return end
  }

  /// The first `byte` from `start` before `end`, or `end`.
  @inline(__always)
  static func first(
    _ byte: UInt8,
    in bytes: [UInt8],
    from start: Int,
    to end: Int
  ) -> Int {
    firstHit(in: bytes, from: start, to: end, candidates: { equal($0, byte) }) { $0 == byte }
  }
}
