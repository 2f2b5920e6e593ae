/// Splits a terminal program's output into text and escape sequences, in one pass over its bytes.
///
/// It recognises what terminals recognise: CSI sequences (`ESC [` parameters, intermediates, a
/// final byte), of which `m` is SGR (colours and attributes); OSC, DCS, APC, PM and SOS strings up
/// to their terminator; and two-byte escapes (`ESC 7`, `ESC ( B`). Only complete sequences reach
/// the caller (SGR ones, other CSI ones without a private marker, two-byte escapes); every
/// other sequence, and every malformed one, is dropped whole, so no escape byte is ever passed
/// on as text.
///
/// - Complexity: O(*n*) in the number of bytes.
enum EscapeSequenceScanner {
  static let escape: UInt8 = 0x1B

  /// Calls `text` with the range of each run of bytes between sequences, `sgr` with the
  /// parameters of each SGR sequence (an empty parameter is `nil`), `control` with the final byte
  /// and parameters of every other well-formed CSI sequence without a private marker or
  /// intermediate (cursor moves, erases), and `shortEscape` with the final byte of a two-byte
  /// escape (`ESC 7`).
  static func scan(
    _ bytes: Span<UInt8>,
    text: (Range<Int>) -> Void,
    sgr: ([[Int?]]) -> Void,
    control: (UInt8, [[Int?]]) -> Void = { _, _ in },
    shortEscape: (UInt8) -> Void = { _ in }
  ) {
    var index = 0
    var textStart = 0
    func flushText(upTo end: Int) {
      if end > textStart { text(textStart..<end) }
    }
    while index < bytes.count {
      guard bytes[index] == escape else {
        index += 1
        continue
      }
      flushText(upTo: index)
      index = skipSequence(
        in: bytes,
        at: index,
        sgr: sgr,
        control: control,
        shortEscape: shortEscape
      )
      textStart = index
    }
    flushText(upTo: bytes.count)
  }

  /// The index after the sequence that starts with the escape at `start`.
  private static func skipSequence(
    in bytes: Span<UInt8>,
    at start: Int,
    sgr: ([[Int?]]) -> Void,
    control: (UInt8, [[Int?]]) -> Void,
    shortEscape: (UInt8) -> Void
  ) -> Int {
    let next = start + 1
    guard next < bytes.count else { return next }
    switch bytes[next] {
    case UInt8(ascii: "["):
      return skipControlSequence(in: bytes, from: next + 1, sgr: sgr, control: control)
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"),
      UInt8(ascii: "X"):
      return skipString(in: bytes, from: next + 1)
    case 0x20...0x2F:
      // Intermediates, then a final byte: `ESC ( B` selects a character set.
      var index = next
      while index < bytes.count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
      if index < bytes.count, (0x30...0x7E).contains(bytes[index]) { return index + 1 }
      return index
    case 0x30...0x7E:
      shortEscape(bytes[next])
      return next + 1
    default:
      // A lone escape before a control or non-ASCII byte: drop the escape, keep what follows.
      return next
    }
  }

  /// A CSI sequence's parameters (`0x30…0x3F`), intermediates (`0x20…0x2F`) and final byte
  /// (`0x40…0x7E`). A parameter byte after an intermediate makes it malformed: as a terminal
  /// does, it is read on to its final byte and dropped whole, whatever its length, so no part of
  /// it (`1;0m` of `ESC[38;2;300;-1;0m`) becomes text. A byte that cannot be in a sequence at all
  /// (a control, a non-ASCII byte) ends it there.
  private static func skipControlSequence(
    in bytes: Span<UInt8>,
    from start: Int,
    sgr: ([[Int?]]) -> Void,
    control: (UInt8, [[Int?]]) -> Void
  ) -> Int {
    var index = start
    while index < bytes.count, (0x30...0x3F).contains(bytes[index]) { index += 1 }
    let parametersEnd = index
    while index < bytes.count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
    var malformed = false
    while index < bytes.count, (0x20...0x3F).contains(bytes[index]) {
      malformed = true
      index += 1
    }
    guard index < bytes.count, (0x40...0x7E).contains(bytes[index]) else { return index }
    if !malformed, parametersEnd == index,
      let parameters = sgrParameters(bytes.extracting(start..<parametersEnd))
    {
      if bytes[index] == UInt8(ascii: "m") {
        sgr(parameters)
      } else {
        control(bytes[index], parameters)
      }
    }
    return index + 1
  }

  /// The parameters, separated by `;`, each with the sub-parameters `:` separates (ITU T.416's
  /// form of extended colours, `38:2::255:0:0`, and of underline styles, `4:3`); `nil` when the
  /// parameters hold anything else (a private marker such as `?`).
  private static func sgrParameters(_ bytes: Span<UInt8>) -> [[Int?]]? {
    var parameters: [[Int?]] = []
    var group: [Int?] = []
    var current: Int?
    for index in bytes.indices {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        // Clamped, so that a long run of digits cannot overflow.
        current = min((current ?? 0) * 10 + Int(byte - UInt8(ascii: "0")), 100_000)
      case UInt8(ascii: ":"):
        group.append(current)
        current = nil
      case UInt8(ascii: ";"):
        group.append(current)
        parameters.append(group)
        group = []
        current = nil
      default:
        return nil
      }
    }
    group.append(current)
    parameters.append(group)
    return parameters
  }

  /// A string sequence ends with `ESC \` (or BEL, which OSC allows); one that never ends runs to
  /// the end of the output, as it would swallow it in a terminal.
  private static func skipString(in bytes: Span<UInt8>, from start: Int) -> Int {
    var index = start
    while index < bytes.count {
      if bytes[index] == 0x07 { return index + 1 }
      if bytes[index] == escape {
        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") { return index + 2 }
        // Another sequence begins: the string ends without its terminator.
        return index
      }
      index += 1
    }
    return index
  }
}

extension EscapeSequenceScanner {
  /// The output with every escape sequence removed, decoded as UTF-8 (an invalid byte becomes
  /// U+FFFD).
  static func strippingEscapes(from data: [UInt8]) -> String {
    var kept: [UInt8] = []
    kept.reserveCapacity(data.count)
    scan(data.span, text: { kept.append(contentsOf: data[$0]) }, sgr: { _ in })
    return String(decoding: kept, as: UTF8.self)
  }
}
