extension Scrubber {
  /// Replaces UUIDs in their RFC 4122 text form, in either case, with `UUID_1`, `UUID_2`, …,
  /// numbered by first appearance; every occurrence of one UUID gets the same placeholder, whatever
  /// its case.
  ///
  /// ```swift
  /// assertSnapshot(of: user, as: .dump.scrubbing(.uuids))
  /// // id: 8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B, parent: 8f3c2a1e-4b5d-…
  /// // becomes id: UUID_1, parent: UUID_1
  /// ```
  ///
  /// A UUID glued to a letter or digit (`x8F3C…`) is left alone. Complexity: O(*n*) in the text's
  /// length.
  public static let uuids = Self("uuids", replacesIdentities: true) { text in
    IdentityNumbering(prefix: "UUID", key: ASCII.uppercased, match: UUIDScanner.match)
      .replace(in: text)
  }
}

/// Finds `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` (hex digits, either case) between word boundaries.
enum UUIDScanner {
  static let length = 36
  private static let hyphen = UInt8(ascii: "-")

  static func match(_ bytes: Span<UInt8>, _ start: Int) -> Int? {
    let end = start + length
    guard end <= bytes.count, bytes[start + 8] == hyphen, ASCII.isHexDigit(bytes[start]),
      ASCII.startsWord(bytes, at: start), ASCII.endsWord(bytes, at: end)
    else { return nil }
    for offset in 0..<length {
      let byte = bytes[start + offset]
      switch offset {
      case 8, 13, 18, 23:
        guard byte == hyphen else { return nil }
      default:
        guard ASCII.isHexDigit(byte) else { return nil }
      }
    }
    return length
  }
}
