/// The scan shared by the built-in scrubbers that replace identities: it walks the text's UTF-8
/// bytes once, asks a matcher at each position whether an identity starts there, and writes
/// `<prefix>_<n>`, numbering distinct identities by first appearance (`UUID_1`, `UUID_2`, and
/// `UUID_1` again for a repeat), as Verify does.
///
/// Complexity: O(*n* · *k*), where *n* is the text's length in bytes and *k* the longest identity
/// a matcher reads, a small constant: there is no backtracking over the text.
struct IdentityNumbering {
  /// Says whether an identity starts at an index and, if so, how many bytes long it is.
  typealias Matcher = (_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int?

  /// The placeholder's prefix, `UUID` for `UUID_1`.
  let prefix: String
  /// The identity's key for numbering, so that spellings of one identity (`0xAB`, `0xab`) share
  /// a number.
  let key: (_ identity: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8]
  let match: Matcher

  /// Returns `text` with every identity replaced; the text itself when it holds none.
  func replace(in text: String) -> String {
    var text = text
    text.makeContiguousUTF8()
    let replaced = text.utf8.withContiguousStorageIfAvailable { replace(in: $0) }
    return (replaced ?? nil) ?? text
  }

  private func replace(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
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
      output.append(contentsOf: bytes[copiedUpTo..<index])
      let identity = IdentityKey(bytes: key(bytes[index..<index + length]))
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
    output.append(contentsOf: bytes[copiedUpTo...])
    return String(decoding: output, as: UTF8.self)
  }
}

/// An identity's key for numbering, hashed as one run of bytes: an array of bytes hashes each
/// byte apart, which took most of the time of scrubbing a text with a few hundred identities.
private struct IdentityKey: Hashable {
  let bytes: [UInt8]

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
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
  static func startsWord(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    index == 0 || !isAlphanumeric(bytes[index - 1])
  }

  /// Whether the byte at `index` (if any) lets an identity end before it: not a letter or digit.
  static func endsWord(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    index >= bytes.count || !isAlphanumeric(bytes[index])
  }

  static func uppercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
    bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
  }
}
