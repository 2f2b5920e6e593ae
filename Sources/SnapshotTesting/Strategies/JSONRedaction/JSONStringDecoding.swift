/// Decodes the contents of a JSON string (between its quotes), so that a key written with
/// escapes (`"a\/b"`, `"\u00e9"`) is compared with the selector as the text it stands for.
enum JSONStringDecoding {
  static func decode(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(JSONRedactor.MalformedJSON)
    -> String
  {
    guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
    var scalars = String.UnicodeScalarView()
    var utf8: [UInt8] = []
    var index = bytes.startIndex
    func flush() {
      scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
      utf8.removeAll(keepingCapacity: true)
    }
    while index < bytes.endIndex {
      let byte = bytes[index]
      index += 1
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        continue
      }
      flush()
      guard index < bytes.endIndex else { throw .init(byteOffset: offset) }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "b"): scalars.append("\u{8}")
      case UInt8(ascii: "f"): scalars.append("\u{C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        scalars.append(try unicodeEscape(bytes, &index, offset: offset))
      default: scalars.append(Unicode.Scalar(escape))
      }
    }
    flush()
    return String(scalars)
  }

  /// Reads `XXXX` (after `\u`), and a following `\uXXXX` low surrogate when the first is high.
  private static func unicodeEscape(
    _ bytes: ArraySlice<UInt8>,
    _ index: inout Int,
    offset: Int
  ) throws(JSONRedactor.MalformedJSON) -> Unicode.Scalar {
    let high = try hex4(bytes, &index, offset: offset)
    if (0xD800..<0xDC00).contains(high), index + 1 < bytes.endIndex,
      bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
    {
      index += 2
      let low = try hex4(bytes, &index, offset: offset)
      let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
      return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
    return Unicode.Scalar(high) ?? "\u{FFFD}"
  }

  private static func hex4(
    _ bytes: ArraySlice<UInt8>,
    _ index: inout Int,
    offset: Int
  ) throws(JSONRedactor.MalformedJSON) -> UInt32 {
    guard index + 4 <= bytes.endIndex,
      let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
    else { throw .init(byteOffset: offset) }
    index += 4
    return value
  }
}
