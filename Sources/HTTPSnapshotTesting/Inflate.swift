import Foundation

/// The bodies of `Content-Encoding: gzip` (RFC 1952, every member) and `deflate` (a zlib stream,
/// RFC 1950, or the raw DEFLATE data some servers send), decoded by zlib (``ZlibStream``).
///
/// - Complexity: O(*n* + *m*) in the compressed and decoded sizes; the decoded size is bounded by
///   `limit`, so a small body that would expand without end (a "zip bomb") stops there.
enum Inflate {
  enum Failure: Error, Equatable, CustomStringConvertible {
    /// The data ended inside a stream or a header.
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
    Data(try decode([UInt8](data), windowBits: 15 + 16, limit: limit))
  }

  /// The bytes of `Content-Encoding: deflate`: a zlib stream, as the standard says, or, as some
  /// servers send, raw DEFLATE data.
  static func inflateZlibOrRaw(_ data: Data, limit: Int) throws(Failure) -> Data {
    let bytes = [UInt8](data)
    // A zlib header: method 8 (DEFLATE), and the two bytes a multiple of 31.
    let isZlib =
      bytes.count >= 2 && bytes[0] & 0x0F == 8 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
    return Data(try decode(bytes, windowBits: isZlib ? 15 : -15, limit: limit))
  }

  private static let gzipMagic: [UInt8] = [0x1F, 0x8B]

  /// Decodes a whole body, a piece of output at a time; gzip's members one after another.
  private static func decode(
    _ input: [UInt8],
    windowBits: Int32,
    limit: Int
  ) throws(Failure) -> [UInt8] {
    let isGzip = windowBits > 15
    if isGzip, input.count >= 2, !input.starts(with: gzipMagic) {
      throw .malformed("it does not start as gzip data does")
    }
    guard let stream = ZlibStream(windowBits: windowBits) else {
      throw .malformed("zlib could not start (out of memory)")
    }
    var output: [UInt8] = []
    var piece = [UInt8](repeating: 0, count: 64 * 1024)
    var position = 0
    while true {
      let (status, consumed, produced) = stream.step(input[position...], into: &piece)
      position += consumed
      guard produced <= limit - output.count else { throw .tooLarge(limit: limit) }
      output.append(contentsOf: piece[..<produced])
      switch status {
      case .progress:
        if consumed == 0 && produced == 0 { throw .truncated }
      case .end:
        guard isGzip, position < input.count else { return output }
        // Another member follows.
        guard input[position...].starts(with: gzipMagic) else {
          throw .malformed("it does not start as gzip data does")
        }
        guard stream.reset() else { throw .malformed("zlib could not start the next member") }
      case .needsInput: throw .truncated
      case .needsDictionary: throw .malformed("it needs a preset dictionary")
      case .outOfMemory: throw .malformed("zlib ran out of memory")
      case .dataError(let message):
        if message.hasSuffix("data check") || message.hasSuffix("length check") {
          throw .checksumMismatch
        }
        throw .malformed(message.isEmpty ? "zlib cannot decode it" : message)
      }
    }
  }
}
