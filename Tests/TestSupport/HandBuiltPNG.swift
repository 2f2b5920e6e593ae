import Foundation

/// PNG files built byte by byte, for chunks and depths that this package's encoder never writes:
/// 16-bit samples, animation (APNG) and ancillary chunks such as gAMA or iCCP. Shared by the test
/// targets. The image data is stored uncompressed (deflate's stored blocks), so every byte is
/// known.
public enum HandBuiltPNG {
  /// A chunk: its type and its data.
  public typealias Chunk = (type: String, data: [UInt8])

  /// A PNG of `rows` (each row's samples, without the filter byte), with `beforeData` chunks
  /// between IHDR and IDAT and `afterData` chunks between IDAT and IEND.
  public static func make(
    width: Int,
    height: Int,
    bitDepth: UInt8,
    colorType: UInt8,
    rows: [[UInt8]],
    beforeData: [Chunk] = [],
    afterData: [Chunk] = []
  ) -> Data {
    var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    header += [bitDepth, colorType, 0, 0, 0]
    var chunks: [Chunk] = [("IHDR", header)]
    chunks += beforeData
    chunks.append(("IDAT", imageData(rows)))
    chunks += afterData
    chunks.append(("IEND", []))
    return file(chunks)
  }

  /// The signature followed by `chunks`, each framed with its length and CRC.
  public static func file(_ chunks: [Chunk]) -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for chunk in chunks { bytes += frame(chunk) }
    return Data(bytes)
  }

  /// `png` with `chunks` inserted just after its IHDR chunk.
  public static func inserting(_ chunks: [Chunk], afterHeaderOf png: Data) -> Data {
    let bytes = [UInt8](png)
    // Signature (8), IHDR's length and type (8), its 13 bytes and CRC (4).
    let headerEnd = 8 + 8 + 13 + 4
    return Data(bytes[..<headerEnd] + chunks.flatMap(frame) + bytes[headerEnd...])
  }

  /// Rows with a filter byte of 0 each, in a zlib stream of stored blocks.
  public static func imageData(_ rows: [[UInt8]]) -> [UInt8] {
    zlibStored(rows.flatMap { [0] + $0 })
  }

  /// `bytes` in a zlib stream of uncompressed (stored) deflate blocks.
  public static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
    var stream: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, bytes.count - offset)
      let isLast: UInt8 = offset + count == bytes.count ? 1 : 0
      stream.append(isLast)
      stream += [UInt8(count & 0xFF), UInt8(count >> 8)]
      stream += [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      stream += bytes[offset..<(offset + count)]
      offset += count
    } while offset < bytes.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return stream + bigEndian(b << 16 | a)
  }

  public static func bigEndian(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) }
  }

  public static func bigEndian(_ value: UInt16) -> [UInt8] {
    [UInt8(value >> 8), UInt8(value & 0xFF)]
  }

  /// A chunk's length, type, data and CRC-32 (of type and data).
  public static func frame(_ chunk: Chunk) -> [UInt8] {
    let typeAndData = Array(chunk.type.utf8) + chunk.data
    return bigEndian(UInt32(chunk.data.count)) + typeAndData + bigEndian(crc32(typeAndData))
  }

  /// The CRC-32 that PNG chunks carry (polynomial 0xEDB88320, bit by bit).
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// An APNG frame-control chunk's data: the frame's sequence number, size and place, a delay of
  /// 1/10 s, no disposal, no blending.
  public static func frameControl(sequence: UInt32, width: Int, height: Int) -> [UInt8] {
    bigEndian(sequence) + bigEndian(UInt32(width)) + bigEndian(UInt32(height))
      + bigEndian(UInt32(0)) + bigEndian(UInt32(0)) + bigEndian(UInt16(1)) + bigEndian(UInt16(10))
      + [0, 0]
  }
}
