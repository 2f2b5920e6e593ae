import Testing

@testable import MarkupSnapshotTesting

/// The eight-bytes-at-a-time scans find what a byte-by-byte loop finds, wherever it is: at every
/// offset modulo 8, in the last seven bytes (past the last whole word), next to bytes that the
/// word arithmetic could take for hits, and among multi-byte UTF-8.
@Suite struct ByteScanTests {
  static func naiveFirst(
    _ bytes: [UInt8],
    from start: Int,
    to end: Int,
    where isHit: (UInt8) -> Bool
  ) -> Int {
    (start..<end).first { isHit(bytes[$0]) } ?? end
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    [0x09, 0x0A, 0x0C, 0x0D, 0x20].contains(byte)
  }

  static func scanSpace(_ buffer: [UInt8], from start: Int, to end: Int) -> Int {
    ByteScan.firstHit(
      in: buffer,
      from: start,
      to: end,
      candidates: ByteScan.spaceCandidates,
      isHit: isSpace
    )
  }

  @Test func aByteIsFoundAtEveryPositionFromEveryStart() {
    for length in 0...40 {
      for hit in 0..<max(length, 1) {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        if hit < length { bytes[hit] = UInt8(ascii: "<") }
        do {
          let buffer = bytes
          for start in 0...min(length, 9) {
            let expected = hit >= start && hit < length ? hit : length
            let found = ByteScan.first(UInt8(ascii: "<"), in: buffer, from: start, to: length)
            #expect(found == expected, "length \(length), `<` at \(hit), from \(start)")
          }
        }
      }
    }
  }

  @Test func theEndBoundsTheScanEvenInsideAWord() {
    let bytes = Array("abcdefghijklmno<".utf8)
    do {
      let buffer = bytes
      for end in 0..<15 {
        #expect(ByteScan.first(UInt8(ascii: "<"), in: buffer, from: 0, to: end) == end)
      }
      #expect(ByteScan.first(UInt8(ascii: "<"), in: buffer, from: 0, to: 16) == 15)
    }
  }

  /// `=` is `<` + 1: right after a `<` the subtraction's borrow makes it look like a hit too, and
  /// `!` (space + 1) after a space likewise. The first hit is exact; later candidates are checked.
  @Test func bytesNextToAHitAreNotTakenForHits() {
    let bytes = Array("ab=<=<=xyz! !\u{1}\u{2}!  ".utf8)
    do {
      let buffer = bytes
      #expect(ByteScan.first(UInt8(ascii: "<"), in: buffer, from: 0, to: buffer.count) == 3)
      #expect(ByteScan.first(UInt8(ascii: "<"), in: buffer, from: 4, to: buffer.count) == 5)
      #expect(
        ByteScan.first(UInt8(ascii: "<"), in: buffer, from: 6, to: buffer.count) == buffer.count
      )
      // Control characters are candidates for whitespace, not hits.
      #expect(Self.scanSpace(buffer, from: 0, to: buffer.count) == 11)
      #expect(Self.scanSpace(buffer, from: 12, to: buffer.count) == 16)
    }
  }

  @Test func multiByteUTF8IsNeverAHit() {
    // Every byte of these is at least 0x80: none is `<`, a quote or whitespace.
    for padding in 0..<8 {
      let text = String(repeating: "x", count: padding) + "é€😀\u{A0}\u{3000}<\"é "
      let bytes = Array(text.utf8)
      let less = bytes.firstIndex(of: UInt8(ascii: "<"))!
      do {
        let buffer = bytes
        #expect(ByteScan.first(UInt8(ascii: "<"), in: buffer, from: 0, to: buffer.count) == less)
        #expect(
          ByteScan.first(UInt8(ascii: "\""), in: buffer, from: 0, to: buffer.count) == less + 1
        )
        #expect(Self.scanSpace(buffer, from: 0, to: buffer.count) == buffer.count - 1)
      }
    }
  }

  /// Every ASCII byte at every position of a word is lowercased as `lowercased()` would, also
  /// with non-ASCII bytes after it (whose carries go only further on).
  @Test func capitalsAreFoundInEveryPlaceOfAWord() {
    for byte in UInt8(0)..<0x80 {
      for position in 0..<8 {
        for after: UInt8 in [0x00, 0x41, 0xC3, 0xFF] {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
          bytes[position] = byte
          for rest in (position + 1)..<8 { bytes[rest] = after }
          let word = ByteScan.word(bytes, at: 0)
          let lowered = word | ByteScan.capitals(word) &>> 2
          let expected = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
          #expect(
            UInt8(truncatingIfNeeded: lowered &>> UInt64(8 * position)) == expected,
            "\(byte) at \(position), then \(after)"
          )
        }
      }
    }
  }

  /// Random bytes, all 256 values, against the byte-by-byte loop.
  @Test func randomBytesScanAsByteByByte() {
    var generator = RandomHTMLTests.Generator(state: 88)
    let interesting: [UInt8] = [0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x21, 0x3C, 0x3D, 0x22, 0x23, 0x27]
    for _ in 0..<2_000 {
      let length = Int.random(in: 0...48, using: &generator)
      let bytes = (0..<length).map { _ in
        Bool.random(using: &generator)
          ? interesting.randomElement(using: &generator)!
          : UInt8.random(in: 0...255, using: &generator)
      }
      let start = Int.random(in: 0...length, using: &generator)
      let end = Int.random(in: start...length, using: &generator)
      do {
        let buffer = bytes
        for target in [UInt8(ascii: "<"), 0x22, 0x27] {
          #expect(
            ByteScan.first(target, in: buffer, from: start, to: end)
              == Self.naiveFirst(bytes, from: start, to: end) { $0 == target },
            "\(bytes) \(start)..<\(end) \(target)"
          )
        }
        #expect(
          Self.scanSpace(buffer, from: start, to: end)
            == Self.naiveFirst(bytes, from: start, to: end, where: Self.isSpace),
          "\(bytes) \(start)..<\(end)"
        )
      }
    }
  }
}
