import Foundation

/// A DEFLATE decoder (RFC 1951) with the gzip (RFC 1952) and zlib (RFC 1950) wrappers, for
/// bodies sent with `Content-Encoding: gzip` or `deflate`. Written here so that the HTTP module
/// needs no system library.
///
/// - Complexity: O(*n* + *m*) in the compressed and decoded sizes; the decoded size is bounded by
///   `limit`, so a small body that would expand without end (a "zip bomb") stops there.
enum Inflate {
  enum Failure: Error, Equatable, CustomStringConvertible {
    /// The data ended inside a block or a header.
    case truncated
    /// A header, a block or a code that the format does not allow.
    case malformed(String)
    /// The checksum the wrapper carries does not match the decoded bytes.
    case checksumMismatch
    /// Decoding would give more than this many bytes.
    case tooLarge(limit: Int)

    var description: String {
      switch self {
      case .truncated: "the data ends too early"
      case .malformed(let why): why
      case .checksumMismatch: "its checksum does not match the decoded bytes"
      case .tooLarge(let limit): "it decodes to more than \(limit) bytes"
      }
    }
  }

  /// The bytes a gzip stream holds: its members, one after another.
  static func gunzip(_ data: Data, limit: Int) throws(Failure) -> Data {
    let bytes = [UInt8](data)
    var output: [UInt8] = []
    var position = 0
    repeat {
      position = try gzipMember(bytes, from: position, into: &output, limit: limit)
    } while position < bytes.count
    return Data(output)
  }

  /// The bytes of `Content-Encoding: deflate`: a zlib stream, as the standard says, or, as some
  /// servers send, raw DEFLATE data.
  static func inflateZlibOrRaw(_ data: Data, limit: Int) throws(Failure) -> Data {
    let bytes = [UInt8](data)
    var output: [UInt8] = []
    let header = bytes.count >= 2 ? UInt16(bytes[0]) << 8 | UInt16(bytes[1]) : 0
    if bytes.count >= 2, bytes[0] & 0x0F == 8, header % 31 == 0 {
      guard bytes[1] & 0x20 == 0 else { throw .malformed("it needs a preset dictionary") }
      var reader = BitReader(bytes, from: 2)
      try inflate(&reader, into: &output, limit: limit)
      let end = reader.byteAlignedPosition
      guard end + 4 <= bytes.count else { throw .truncated }
      let stored = bytes[end..<end + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      guard stored == adler32(output) else { throw .checksumMismatch }
      return Data(output)
    }
    var reader = BitReader(bytes, from: 0)
    try inflate(&reader, into: &output, limit: limit)
    return Data(output)
  }

  private static func gzipMember(
    _ bytes: [UInt8], from start: Int, into output: inout [UInt8], limit: Int
  ) throws(Failure) -> Int {
    guard start + 10 <= bytes.count else { throw .truncated }
    guard bytes[start] == 0x1F, bytes[start + 1] == 0x8B else {
      throw .malformed("it does not start as gzip data does")
    }
    guard bytes[start + 2] == 8 else { throw .malformed("its compression method is not DEFLATE") }
    let flags = bytes[start + 3]
    var position = start + 10
    if flags & 0x04 != 0 {  // FEXTRA
      guard position + 2 <= bytes.count else { throw .truncated }
      position += 2 + Int(bytes[position]) | Int(bytes[position + 1]) << 8
    }
    for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT
      while position < bytes.count, bytes[position] != 0 { position += 1 }
      position += 1
    }
    if flags & 0x02 != 0 { position += 2 }  // FHCRC
    guard position <= bytes.count else { throw .truncated }
    let first = output.count
    var reader = BitReader(bytes, from: position)
    try inflate(&reader, into: &output, limit: limit)
    let end = reader.byteAlignedPosition
    guard end + 8 <= bytes.count else { throw .truncated }
    func littleEndian(_ at: Int) -> UInt32 {
      (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }
    guard littleEndian(end) == crc32(output[first...]),
      littleEndian(end + 4) == UInt32(truncatingIfNeeded: output.count - first)
    else { throw .checksumMismatch }
    return end + 8
  }

  // MARK: - DEFLATE

  private static func inflate(
    _ reader: inout BitReader, into output: inout [UInt8], limit: Int
  ) throws(Failure) {
    var last = false
    while !last {
      last = try reader.bits(1) == 1
      switch try reader.bits(2) {
      case 0:
        try storedBlock(&reader, into: &output, limit: limit)
      case 1:
        try huffmanBlock(&reader, Tables.fixedLiterals, Tables.fixedDistances, &output, limit)
      case 2:
        let (literals, distances) = try dynamicTables(&reader)
        try huffmanBlock(&reader, literals, distances, &output, limit)
      default:
        throw .malformed("it holds a DEFLATE block of the reserved type 3")
      }
    }
  }

  private static func storedBlock(
    _ reader: inout BitReader, into output: inout [UInt8], limit: Int
  ) throws(Failure) {
    var position = reader.byteAlignedPosition
    guard position + 4 <= reader.bytes.count else { throw .truncated }
    let length = Int(reader.bytes[position]) | Int(reader.bytes[position + 1]) << 8
    let complement = Int(reader.bytes[position + 2]) | Int(reader.bytes[position + 3]) << 8
    guard length ^ 0xFFFF == complement else {
      throw .malformed("a stored block's length does not match its complement")
    }
    position += 4
    guard position + length <= reader.bytes.count else { throw .truncated }
    guard output.count + length <= limit else { throw .tooLarge(limit: limit) }
    output.append(contentsOf: reader.bytes[position..<position + length])
    reader = BitReader(reader.bytes, from: position + length)
  }

  private static func huffmanBlock(
    _ reader: inout BitReader, _ literals: Huffman, _ distances: Huffman,
    _ output: inout [UInt8], _ limit: Int
  ) throws(Failure) {
    while true {
      let symbol = try literals.decode(&reader)
      if symbol < 256 {
        guard output.count < limit else { throw .tooLarge(limit: limit) }
        output.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let lengthIndex = symbol - 257
      guard lengthIndex < 29 else { throw .malformed("it uses length code \(symbol)") }
      let length =
        Tables.lengthBase[lengthIndex] + (try reader.bits(Tables.lengthExtra[lengthIndex]))
      let distanceSymbol = try distances.decode(&reader)
      guard distanceSymbol < 30 else {
        throw .malformed("it uses distance code \(distanceSymbol)")
      }
      let distance =
        Tables.distanceBase[distanceSymbol]
        + (try reader.bits(Tables.distanceExtra[distanceSymbol]))
      guard distance <= output.count else {
        throw .malformed("it refers \(distance) bytes back, before the start")
      }
      guard output.count + length <= limit else { throw .tooLarge(limit: limit) }
      let from = output.count - distance
      for offset in 0..<length { output.append(output[from + offset]) }
    }
  }

  private static func dynamicTables(
    _ reader: inout BitReader
  ) throws(Failure) -> (Huffman, Huffman) {
    let literalCount = try reader.bits(5) + 257
    let distanceCount = try reader.bits(5) + 1
    let codeLengthCount = try reader.bits(4) + 4
    var codeLengthLengths = [Int](repeating: 0, count: 19)
    for index in 0..<codeLengthCount {
      codeLengthLengths[Tables.codeLengthOrder[index]] = try reader.bits(3)
    }
    let codeLengths = try Huffman(lengths: codeLengthLengths)
    var lengths: [Int] = []
    lengths.reserveCapacity(literalCount + distanceCount)
    while lengths.count < literalCount + distanceCount {
      let symbol = try codeLengths.decode(&reader)
      switch symbol {
      case 0...15:
        lengths.append(symbol)
      case 16:
        guard let previous = lengths.last else {
          throw .malformed("it repeats a code length before the first")
        }
        lengths += repeatElement(previous, count: 3 + (try reader.bits(2)))
      case 17:
        lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
      default:
        lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
      }
    }
    guard lengths.count == literalCount + distanceCount else {
      throw .malformed("its code lengths run past their count")
    }
    guard lengths[256] != 0 else { throw .malformed("its block has no end-of-block code") }
    return (
      try Huffman(lengths: Array(lengths[..<literalCount])),
      try Huffman(lengths: Array(lengths[literalCount...]))
    )
  }

  // MARK: - Checksums

  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = Tables.crc[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for chunk in stride(from: 0, to: bytes.count, by: 5552) {
      for byte in bytes[chunk..<min(chunk + 5552, bytes.count)] {
        a += UInt32(byte)
        b += a
      }
      a %= 65521
      b %= 65521
    }
    return b << 16 | a
  }
}

/// Reads DEFLATE's bit stream: least significant bit first.
private struct BitReader {
  let bytes: [UInt8]
  private var position: Int
  private var buffer: UInt64 = 0
  private var count = 0

  init(_ bytes: [UInt8], from position: Int) {
    self.bytes = bytes
    self.position = position
  }

  /// The next `width` bits as a number (`width` at most 16).
  mutating func bits(_ width: Int) throws(Inflate.Failure) -> Int {
    while count < width {
      guard position < bytes.count else { throw .truncated }
      buffer |= UInt64(bytes[position]) << UInt64(count)
      position += 1
      count += 8
    }
    let value = Int(buffer & ((1 << UInt64(width)) - 1))
    buffer >>= UInt64(width)
    count -= width
    return value
  }

  /// The index of the first byte not yet read, dropping the bits left in the current byte.
  var byteAlignedPosition: Int { position - count / 8 }
}

/// A canonical Huffman code, decoded a bit at a time through the counts of each length.
private struct Huffman {
  private var counts = [Int](repeating: 0, count: 16)
  private var symbols: [Int] = []

  init(lengths: [Int]) throws(Inflate.Failure) {
    var counts = [Int](repeating: 0, count: 16)
    for length in lengths { counts[length] += 1 }
    var left = 1
    for length in 1...15 {
      left = left * 2 - counts[length]
      guard left >= 0 else { throw .malformed("it holds an oversubscribed Huffman code") }
    }
    self.init(checkedLengths: lengths)
  }

  /// A code whose lengths are known not to be oversubscribed (the fixed tables).
  init(checkedLengths lengths: [Int]) {
    for length in lengths { counts[length] += 1 }
    counts[0] = 0
    var offsets = [Int](repeating: 0, count: 16)
    for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
    symbols = [Int](repeating: 0, count: lengths.count)
    for (symbol, length) in lengths.enumerated() where length != 0 {
      symbols[offsets[length]] = symbol
      offsets[length] += 1
    }
  }

  func decode(_ reader: inout BitReader) throws(Inflate.Failure) -> Int {
    var code = 0
    var first = 0
    var index = 0
    for length in 1...15 {
      code |= try reader.bits(1)
      let count = counts[length]
      if code - first < count { return symbols[index + code - first] }
      index += count
      first = (first + count) << 1
      code <<= 1
    }
    throw .malformed("it holds a code that no Huffman table defines")
  }
}

private enum Tables {
  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  static let fixedLiterals = Huffman(
    checkedLengths: Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112)
      + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8))
  static let fixedDistances = Huffman(checkedLengths: Array(repeating: 5, count: 30))

  static let crc: [UInt32] = (0..<256).map { index in
    (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
  }
}
