extension Scrubber {
  /// Replaces memory addresses, `0x` followed by 8 to 16 hex digits, with `ADDRESS_1`,
  /// `ADDRESS_2`, …, numbered by first appearance; one address always gets the same placeholder.
  ///
  /// ```swift
  /// assertSnapshot(of: view, as: .description.scrubbing(.memoryAddresses))
  /// // <Cache: 0x600000c04000> -> <Store: 0x600000c04000>
  /// // becomes <Cache: ADDRESS_1> -> <Store: ADDRESS_1>
  /// ```
  ///
  /// Shorter hex numbers (`0xFF`) and longer runs of hex digits are left alone. Complexity: O(*n*)
  /// in the text's length.
  public static let memoryAddresses = Self("memoryAddresses", replacesIdentities: true) { text in
    IdentityNumbering(prefix: "ADDRESS", key: ASCII.uppercased, match: MemoryAddressScanner.match)
      .replace(in: text)
  }
}

/// Finds `0x` and 8–16 hex digits between word boundaries.
enum MemoryAddressScanner {
  static let digits = 8...16

  static func match(_ bytes: Span<UInt8>, _ start: Int) -> Int? {
    guard start + 2 + digits.lowerBound <= bytes.count, bytes[start] == UInt8(ascii: "0"),
      bytes[start + 1] == UInt8(ascii: "x"), ASCII.startsWord(bytes, at: start)
    else { return nil }
    var end = start + 2
    while end < bytes.count, end - start - 2 <= digits.upperBound, ASCII.isHexDigit(bytes[end]) {
      end += 1
    }
    guard digits.contains(end - start - 2), ASCII.endsWord(bytes, at: end) else { return nil }
    return end - start
  }
}
