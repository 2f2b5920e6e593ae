import CLibPNG
import Foundation
import PNGCodec
import Testing

@testable import ImageSnapshotTesting

/// The libdeflate encoding (`Sources/CLibPNG/SmallestPNG.c`): never larger than the libpng one it
/// replaced, the chunks it writes, and its failure paths.
@Suite struct SmallestEncodingTests {
  /// Images on both of the encoder's paths: up to 1 MiB of pixel data every filter choice is
  /// compressed at level 12; above, the choices are ranked on bands of rows first.
  static func generatedImages() throws -> [(String, Bitmap)] {
    var images: [(String, Bitmap)] = [
      ("screenshot", try PNGEncodingTests.screenshot()),
      ("sample", try PNGEncodingTests.sample()),
    ]
    images += try PNGEncodingTests.colourTypeCases.map { ($0.name, try $0.make()) }
    // A smooth gradient, where Paeth and Up filters win over no filter.
    images.append(
      (
        "gradient",
        try Bitmap(width: 300, height: 200) { x, y in
          RGBA(red: UInt8(x * 255 / 299), green: UInt8(y * 255 / 199), blue: UInt8((x + y) / 2))
        }
      )
    )
    // 1.2 MB of RGBA rows, noisy in the low bits: the ranked path, with a per-row choice.
    images.append(
      (
        "large translucent photo",
        try Bitmap(width: 640, height: 480) { x, y in
          let noise = PNGEncodingTests.scatter(x, y, 7)
          return RGBA(
            red: UInt8((x / 3 + noise) % 256),
            green: UInt8((y / 2 + noise) % 256),
            blue: UInt8((x + y) % 256),
            alpha: UInt8(200 + noise)
          )
        }
      )
    )
    // 2048×600 with few colours: a palette and RGB both tried, on the ranked path.
    images.append(
      (
        "large palette",
        try Bitmap(width: 2048, height: 600) { x, y in
          let index = PNGEncodingTests.scatter(x / 4, y / 3, 40)
          return RGBA(red: UInt8(index * 6), green: UInt8(255 - index * 5), blue: 77)
        }
      )
    )
    return images
  }

  @Test func neverLargerThanTheLibpngEncodingItReplaced() throws {
    for (name, bitmap) in try Self.generatedImages() {
      let new = try bitmap.pngData()
      let previous = try bitmap.rgbaBytes.withUnsafeBufferPointer { pixels in
        try PNGEncoder.smallestWithLibpng(rgba: pixels, width: bitmap.width, height: bitmap.height)
      }
      #expect(new.count <= previous.count, "\(name): \(new.count) bytes, before \(previous.count)")
      #expect(try Bitmap(pngData: new) == bitmap, "\(name)")
      #expect(try Bitmap(pngData: previous) == bitmap, "\(name)")
    }
  }

  @Test func largeImagesAreDeterministic() throws {
    for (name, bitmap) in try Self.generatedImages().suffix(2) {
      let first = try bitmap.pngData()
      #expect(try bitmap.pngData() == first, "\(name)")
      #expect(try Bitmap(pngData: first).pngData() == first, "\(name)")
    }
  }

  @Test func writesExactlyTheListedChunksWithCorrectChecksums() throws {
    for (name, bitmap) in try Self.generatedImages() {
      let chunks = try #require(Self.chunks(of: try bitmap.pngData()), "\(name)")
      let types = chunks.map(\.type)
      let allowed: [[String]] = [
        ["IHDR", "IDAT", "IEND"], ["IHDR", "tRNS", "IDAT", "IEND"],
        ["IHDR", "PLTE", "IDAT", "IEND"], ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"],
      ]
      #expect(allowed.contains(types), "\(name): \(types)")
      for chunk in chunks {
        #expect(chunk.storedCRC == Self.crc32(chunk.typeAndData), "\(name): \(chunk.type)")
      }
    }
  }

  @Test func aDamagedChecksumIsCaughtByTheseTests() throws {
    // The checks above must be able to fail: a flipped CRC byte is seen.
    var data = try PNGEncodingTests.sample().pngData()
    data[data.count - 1] ^= 0xff
    let chunks = try #require(Self.chunks(of: data))
    #expect(chunks.last.map { $0.storedCRC != Self.crc32($0.typeAndData) } == true)
  }

  /// Every allocation of the encoder failing in turn: each gives the out-of-memory error (never a
  /// crash or a partial file), and once the countdown outlasts them the file is the usual one.
  @Test func everyAllocationFailureIsAnError() throws {
    defer { clibpng_test_fail_allocation_after(-1) }
    let images = try Self.generatedImages()
    for (name, bitmap) in [images[0], images[images.count - 1], images[images.count - 2]] {
      let expected = try bitmap.pngData()
      var failures = 0
      for count in 0..<64 {
        clibpng_test_fail_allocation_after(Int32(count))
        let result = bitmap.rgbaBytes.withUnsafeBufferPointer { pixels in
          Result { () throws(PNGCodecError) -> Data in
            try PNGEncoder.smallest(rgba: pixels, width: bitmap.width, height: bitmap.height)
          }
        }
        clibpng_test_fail_allocation_after(-1)
        switch result {
        case .success(let data):
          #expect(data == expected, "\(name), allocation \(count)")
          #expect(failures >= 8, "\(name): only \(failures) allocations could fail")
        case .failure(let error):
          failures += 1
          #expect(error == .encodingFailed(reason: "out of memory"), "\(name), allocation \(count)")
          continue
        }
        break
      }
      #expect(failures < 64, "\(name): the encoding never succeeded")
    }
  }

  // MARK: Reading chunks

  struct Chunk {
    var type: String
    var typeAndData: [UInt8]
    var storedCRC: UInt32
  }

  /// The chunks after the signature, or nil when the framing is broken.
  static func chunks(of data: Data) -> [Chunk]? {
    let bytes = [UInt8](data)
    guard bytes.count >= 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    else { return nil }
    var chunks: [Chunk] = []
    var offset = 8
    while offset < bytes.count {
      guard bytes.count - offset >= 12 else { return nil }
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      guard length <= bytes.count - offset - 12 else { return nil }
      let crcStart = offset + 8 + length
      chunks.append(
        Chunk(
          type: String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self),
          typeAndData: Array(bytes[offset + 4..<crcStart]),
          storedCRC: bytes[crcStart..<crcStart + 4].reduce(0) { $0 << 8 | UInt32($1) }
        )
      )
      offset = crcStart + 4
    }
    return chunks
  }

  /// PNG's CRC-32 (ISO 3309, reflected, polynomial 0xEDB88320), bit by bit: independent of the
  /// encoder's zlib.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
