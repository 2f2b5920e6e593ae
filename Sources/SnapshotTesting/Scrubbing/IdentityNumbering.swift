/// The scan shared by the built-in scrubbers that replace identities: it walks the text's UTF-8
/// bytes once, asks a matcher at each position whether an identity starts there, and writes
/// `<prefix>_<n>`, numbering distinct identities by first appearance (`UUID_1`, `UUID_2`, and
/// `UUID_1` again for a repeat), as Verify does.
///
/// Complexity: O(*n* · *k*), where *n* is the text's length in bytes and *k* the longest identity
/// a matcher reads, a small constant: there is no backtracking over the text.
struct IdentityNumbering {
  /// Says whether an identity starts at an index and, if so, how many bytes long it is.
  typealias Matcher = (_ bytes: Span<UInt8>, _ start: Int) -> Int?

  /// The placeholder's prefix, `UUID` for `UUID_1`.
  let prefix: String
  /// The identity's key for numbering, so that spellings of one identity (`0xAB`, `0xab`) share
  /// a number.
  let key: (_ identity: Span<UInt8>) -> [UInt8]
  let match: Matcher

  /// Returns `text` with every identity replaced; the text itself when it holds none.
  func replace(in text: String) -> String {
    // One copy of the text's bytes (a memory copy): the scan reads them through a span, and the
    // stretches between identities are appended from the array in one piece each.
    let bytes = Array(text.utf8)
    return replace(in: bytes) ?? text
  }

  private func replace(in text: [UInt8]) -> String? {
    let bytes = text.span
    var numbers: [IdentityKey: Int] = [:]
    var output: [UInt8] = []
    var copiedUpTo = 0
    var index = 0
    while index < bytes.count {
      guard let length = match(bytes, index) else {
        index += 1
        continue
      }
      if output.isEmpty { output.reserveCapacity(bytes.count) }
      output.append(contentsOf: text[copiedUpTo..<index])
      let identity = IdentityKey(bytes: key(bytes.extracting(index..<index + length)))
      let number: Int
      if let known = numbers[identity] {
        number = known
      } else {
        number = numbers.count + 1
        numbers[identity] = number
      }
      output.append(contentsOf: "\(prefix)_\(number)".utf8)
      index += length
      copiedUpTo = index
    }
    guard copiedUpTo > 0 else { return nil }
    output.append(contentsOf: text[copiedUpTo...])
    return String(decoding: output, as: UTF8.self)
  }
}

/// An identity's key for numbering, hashed eight bytes at a time: an array of bytes hashes each
/// byte apart, which took most of the time of scrubbing a text with a few hundred identities.
private struct IdentityKey: Hashable {
  let bytes: [UInt8]

  func hash(into hasher: inout Hasher) {
    var word: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
      word |= UInt64(byte) &<< shift
      shift &+= 8
      if shift == 64 {
        hasher.combine(word)
        (word, shift) = (0, 0)
      }
    }
    hasher.combine(word)
    hasher.combine(bytes.count)
  }
}

/// ASCII helpers for the scanners; identities are ASCII, so a match never splits a character.
enum ASCII {
  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
  }

  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  /// Whether the byte before `index` (if any) lets an identity start there: not a letter or digit.
  static func startsWord(_ bytes: Span<UInt8>, at index: Int) -> Bool {
    index == 0 || !isAlphanumeric(bytes[index - 1])
  }

  /// Whether the byte at `index` (if any) lets an identity end before it: not a letter or digit.
  static func endsWord(_ bytes: Span<UInt8>, at index: Int) -> Bool {
    index >= bytes.count || !isAlphanumeric(bytes[index])
  }

  /// The bytes, as they are.
  static func copied(_ bytes: Span<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    for index in bytes.indices { result.append(bytes[index]) }
    return result
  }

  /// The bytes, with lowercase ASCII letters made uppercase.
  static func uppercased(_ bytes: Span<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    for index in bytes.indices {
      let byte = bytes[index]
      result.append(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
    }
    return result
  }
}
