extension Scrubber {
  /// Replaces ISO 8601 dates and date-times with `DATE_1`, `DATE_2`, …, numbered by first
  /// appearance; one timestamp always gets the same placeholder.
  ///
  /// It recognises a plain date (`2024-03-01`), a date-time with `T` or a space between date and
  /// time, minutes and optional seconds and fraction (`2024-03-01T09:30:00.123`), and an optional
  /// offset: `Z`, `+01:00`, `+0100`, `+01`, or ` +0000` after a space, as `Date`'s description
  /// writes it.
  ///
  /// ```swift
  /// assertSnapshot(of: event, as: .dump.scrubbing(.iso8601Dates))
  /// // created: 2024-03-01 09:30:00 +0000, day: 2024-03-01  →  created: DATE_1, day: DATE_2
  /// ```
  ///
  /// Complexity: O(*n*) in the text's length.
  public static let iso8601Dates = Self("iso8601Dates", replacesIdentities: true) { text in
    IdentityNumbering(prefix: "DATE", key: ASCII.copied, match: ISO8601Scanner.match)
      .replace(in: text)
  }
}

/// Reads an ISO 8601 date or date-time forward from a position, without backtracking.
struct ISO8601Scanner {
  private var index: Int

  static func match(_ bytes: Span<UInt8>, _ start: Int) -> Int? {
    guard ASCII.isDigit(bytes[start]), ASCII.startsWord(bytes, at: start) else { return nil }
    var scanner = ISO8601Scanner(index: start)
    guard scanner.date(bytes) else { return nil }
    scanner.optionally(bytes) { $0.time($1) }
    guard scanner.index >= bytes.count || !ASCII.isDigit(bytes[scanner.index]) else { return nil }
    return scanner.index - start
  }

  /// `YYYY-MM-DD`, with a month and a day in range.
  private mutating func date(_ bytes: Span<UInt8>) -> Bool {
    guard number(digits: 4, bytes) != nil, byte("-", bytes), let month = number(digits: 2, bytes),
      byte("-", bytes), let day = number(digits: 2, bytes)
    else { return false }
    return (1...12).contains(month) && (1...31).contains(day)
  }

  /// `Thh:mm`, `:ss`, a fraction and an offset, each optional after the minutes.
  private mutating func time(_ bytes: Span<UInt8>) -> Bool {
    let separatedBySpace = byte(" ", bytes)
    guard separatedBySpace || byte("T", bytes), hourAndMinute(bytes) else { return false }
    optionally(bytes) { $0.byte(":", $1) && $0.number(digits: 2, $1).map { $0 <= 60 } == true }
    optionally(bytes) { ($0.byte(".", $1) || $0.byte(",", $1)) && $0.digits($1) }
    if !optionally(bytes, { $0.offset($1) }), separatedBySpace {
      optionally(bytes) { $0.byte(" ", $1) && $0.offset($1) }
    }
    return true
  }

  /// `Z`, or a sign and `hh`, `hhmm` or `hh:mm`.
  private mutating func offset(_ bytes: Span<UInt8>) -> Bool {
    if byte("Z", bytes) { return true }
    guard byte("+", bytes) || byte("-", bytes),
      number(digits: 2, bytes).map({ $0 <= 23 }) == true
    else { return false }
    if !optionally(bytes, { $0.byte(":", $1) && $0.number(digits: 2, $1) != nil }) {
      optionally(bytes) { $0.number(digits: 2, $1) != nil }
    }
    return true
  }

  private mutating func hourAndMinute(_ bytes: Span<UInt8>) -> Bool {
    guard let hour = number(digits: 2, bytes), byte(":", bytes),
      let minute = number(digits: 2, bytes)
    else { return false }
    return hour <= 23 && minute <= 59
  }

  /// Runs `part`; if it does not match, moves back to where it started. Returns whether it matched.
  @discardableResult
  private mutating func optionally(
    _ bytes: Span<UInt8>,
    _ part: (inout Self, Span<UInt8>) -> Bool
  ) -> Bool {
    var attempt = self
    guard part(&attempt, bytes) else { return false }
    self = attempt
    return true
  }

  private mutating func byte(_ expected: Unicode.Scalar, _ bytes: Span<UInt8>) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: expected) else { return false }
    index += 1
    return true
  }

  /// Exactly `digits` decimal digits, as a number.
  private mutating func number(digits: Int, _ bytes: Span<UInt8>) -> Int? {
    guard index + digits <= bytes.count else { return nil }
    var value = 0
    for offset in 0..<digits {
      let byte = bytes[index + offset]
      guard ASCII.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    index += digits
    return value
  }

  /// One or more decimal digits.
  private mutating func digits(_ bytes: Span<UInt8>) -> Bool {
    let start = index
    while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    return index > start
  }
}
