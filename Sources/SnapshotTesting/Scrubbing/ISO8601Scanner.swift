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
    IdentityNumbering(prefix: "DATE", key: { Array($0) }, match: ISO8601Scanner.match)
      .replace(in: text)
  }
}

/// Reads an ISO 8601 date or date-time forward from a position, without backtracking.
struct ISO8601Scanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index: Int

  static func match(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
    guard ASCII.isDigit(bytes[start]), ASCII.startsWord(bytes, at: start) else { return nil }
    var scanner = ISO8601Scanner(bytes: bytes, index: start)
    guard scanner.date() else { return nil }
    scanner.optionally { $0.time() }
    guard scanner.index >= bytes.count || !ASCII.isDigit(bytes[scanner.index]) else { return nil }
    return scanner.index - start
  }

  /// `YYYY-MM-DD`, with a month and a day in range.
  private mutating func date() -> Bool {
    guard number(digits: 4) != nil, byte("-"), let month = number(digits: 2), byte("-"),
      let day = number(digits: 2)
    else { return false }
    return (1...12).contains(month) && (1...31).contains(day)
  }

  /// `Thh:mm`, `:ss`, a fraction and an offset, each optional after the minutes.
  private mutating func time() -> Bool {
    let separatedBySpace = byte(" ")
    guard separatedBySpace || byte("T"), hourAndMinute() else { return false }
    optionally { $0.byte(":") && $0.number(digits: 2).map { $0 <= 60 } == true }
    optionally { ($0.byte(".") || $0.byte(",")) && $0.digits() }
    if !optionally({ $0.offset() }), separatedBySpace {
      optionally { $0.byte(" ") && $0.offset() }
    }
    return true
  }

  /// `Z`, or a sign and `hh`, `hhmm` or `hh:mm`.
  private mutating func offset() -> Bool {
    if byte("Z") { return true }
    guard byte("+") || byte("-"), number(digits: 2).map({ $0 <= 23 }) == true else { return false }
    if !optionally({ $0.byte(":") && $0.number(digits: 2) != nil }) {
      optionally { $0.number(digits: 2) != nil }
    }
    return true
  }

  private mutating func hourAndMinute() -> Bool {
    guard let hour = number(digits: 2), byte(":"), let minute = number(digits: 2) else {
      return false
    }
    return hour <= 23 && minute <= 59
  }

  /// Runs `part`; if it does not match, moves back to where it started. Returns whether it matched.
  @discardableResult
  private mutating func optionally(_ part: (inout Self) -> Bool) -> Bool {
    var attempt = self
    guard part(&attempt) else { return false }
    self = attempt
    return true
  }

  private mutating func byte(_ expected: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: expected) else { return false }
    index += 1
    return true
  }

  /// Exactly `digits` decimal digits, as a number.
  private mutating func number(digits: Int) -> Int? {
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
  private mutating func digits() -> Bool {
    let start = index
    while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    return index > start
  }
}
