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
  guard let bitmap = try? Bitmap(pngData: Data(buffer: bytes)) else { return 0 }
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
  return 0
}

/// The width and height in the IHDR chunk, when the bytes start with a PNG signature and one.
private func announcedSize(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
  guard bytes.count >= 24 else { return nil }
  func bigEndian(at offset: Int) -> Int {
    (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
  }
  return (bigEndian(at: 16), bigEndian(at: 20))
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
