// libFuzzer harness: `Bitmap(pngData:)` on arbitrary bytes. Run with
// `scripts/fuzz.sh FuzzPNGDecoder SECONDS`.
//
// References are files anyone can edit, truncate or replace. Invariants, for any bytes:
// - decoding never crashes (AddressSanitizer also watches the C shim and the Swift side);
// - a decoded bitmap is within the limits and has exactly width × height × 4 bytes;
// - it encodes (`pngData()`), and the encoded PNG decodes to an equal bitmap.
//
// Headers that announce a large image within the limits (more than 2²⁰ pixels) are skipped: a
// 60-byte input would otherwise make every run allocate and clear up to 256 MiB, which slows the
// search without reaching other code. Images beyond the limits are still decoded (and refused).
//
// Most mutations break a chunk's CRC, and libpng refuses those before it decodes anything; it is
// Debian's build, without coverage, so the fuzzer cannot learn to mend them. An input whose CRCs
// are wrong is therefore decoded twice: as it is, then with every complete chunk's CRC
// recomputed.

import Foundation
import FuzzingSupport
import ImageSnapshotTesting

private let largestDecodedPixelCount = 1 << 20

/// One run of libFuzzer, on one input.
private func fuzzPNGDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  if let (width, height) = announcedSize(bytes), width <= Bitmap.maximumSide,
    height <= Bitmap.maximumSide, width * height > largestDecodedPixelCount,
    width * height <= Bitmap.maximumPixelCount
  {
    return -1  // Not added to the corpus.
  }
  check(bytes)
  if let mended = withCorrectChecksums(bytes) {
    mended.withUnsafeBufferPointer { check($0) }
  }
  return 0
}

private func check(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let bitmap = try? Bitmap(pngData: Data(buffer: bytes)) else { return }
  require(bitmap.width > 0 && bitmap.height > 0, "decoded \(bitmap.width)×\(bitmap.height)")
  require(
    bitmap.width <= Bitmap.maximumSide && bitmap.height <= Bitmap.maximumSide
      && bitmap.pixelCount <= Bitmap.maximumPixelCount,
    "decoded \(bitmap.width)×\(bitmap.height), beyond the limits"
  )
  require(
    bitmap.rgbaBytes.count == bitmap.pixelCount * 4,
    "\(bitmap.rgbaBytes.count) bytes for \(bitmap.width)×\(bitmap.height)"
  )
  let encoded: Data
  do {
    encoded = try bitmap.pngData()
  } catch {
    fail("a decoded \(bitmap.width)×\(bitmap.height) bitmap does not encode: \(error)")
  }
  do {
    let again = try Bitmap(pngData: encoded)
    require(again == bitmap, "the bitmap changed on a round trip through pngData()")
  } catch {
    fail("pngData() of a decoded bitmap does not decode: \(error)")
  }
}

/// The bytes with the CRC of each complete chunk after the signature recomputed, or `nil` when
/// they were all right.
private func withCorrectChecksums(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
  var mended = Array(bytes)
  var changed = false
  var offset = 8  // The signature.
  while offset + 12 <= mended.count {
    let length = bigEndian(mended, at: offset)
    guard length <= mended.count - offset - 12 else { break }
    let end = offset + 8 + length  // Where the CRC of the type and data begins.
    let crc = crc32(mended[(offset + 4)..<end])
    for index in 0..<4 {
      let byte = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index))
      if mended[end + index] != byte {
        mended[end + index] = byte
        changed = true
      }
    }
    offset = end + 4
  }
  return changed ? mended : nil
}

private func bigEndian(_ bytes: some Collection<UInt8>, at offset: Int) -> Int {
  bytes.dropFirst(offset).prefix(4).reduce(0) { $0 << 8 | Int($1) }
}

/// The CRC-32 of PNG chunks (and zlib): reflected, polynomial 0xEDB88320.
private func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
  }
  return crc ^ 0xFFFF_FFFF
}

private let crcTable: [UInt32] = (0..<256).map { (value: UInt32) in
  (0..<8).reduce(value) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
}

/// The width and height in the IHDR chunk, when the bytes start with a PNG signature and one.
private func announcedSize(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
  guard bytes.count >= 24 else { return nil }
  return (bigEndian(bytes, at: 16), bigEndian(bytes, at: 20))
}

/// Stops with a message libFuzzer reports as a crash, saving the input.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

private func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("invariant violated: \(message)\n".utf8))
  abort()
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzPNGDecoder))
