// libFuzzer harness: anti-aliasing detection on arbitrary pairs of small images. Run with
// `scripts/fuzz.sh FuzzAntialiasing SECONDS`.
//
// The detector reads whole neighbourhoods with unchecked vector loads inside the image, and goes
// one neighbour at a time near its edges. The input is two images of 1 to 24 pixels a side,
// drawn from a palette of up to eight colours (few colours make flat areas, equal neighbours and
// ties likely). Invariants:
// - no read outside either image (the images are allocated at their exact size, so
//   AddressSanitizer stops on any);
// - both paths classify every pixel alike, and the index form agrees with them;
// - `Bitmap.compare` forgives exactly the failing pixels the detector finds anti-aliased: the
//   failing and forgiven pixels add up to those failing without detection.

import Foundation
import FuzzingSupport

@testable import ImageSnapshotTesting

/// One run of libFuzzer, on one input.
private func fuzzAntialiasing(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data, size >= 3 else { return -1 }
  let input = UnsafeBufferPointer(start: data, count: size)
  let width = Int(input[0]) % 24 + 1
  let height = Int(input[1]) % 24 + 1
  let colourCount = Int(input[2]) % 8 + 1
  func byte(_ offset: Int) -> UInt8 { offset < size ? input[offset] : 0 }
  let palette = (0..<colourCount).map { colour in
    (0..<4).map { byte(3 + colour * 4 + $0) }
  }
  // Each pixel's byte: the low half picks the reference's colour, the high half the new one's.
  let pixelsStart = 3 + colourCount * 4
  let pixelCount = width * height
  let reference = UnsafeMutablePointer<UInt8>.allocate(capacity: pixelCount * 4)
  let new = UnsafeMutablePointer<UInt8>.allocate(capacity: pixelCount * 4)
  defer {
    reference.deallocate()
    new.deallocate()
  }
  for pixel in 0..<pixelCount {
    let choice = byte(pixelsStart + pixel)
    let referenceColour = palette[Int(choice & 0x0F) % colourCount]
    let newColour = palette[Int(choice >> 4) % colourCount]
    for channel in 0..<4 {
      reference[pixel * 4 + channel] = referenceColour[channel]
      new[pixel * 4 + channel] = newColour[channel]
    }
  }
  let detector = Antialiasing(width: width, height: height, reference: reference, new: new)
  var antialiased = 0
  var differing = 0
  for y in 0..<height {
    for x in 0..<width {
      let answer = detector.isAntialiased(x: x, y: y)
      require(
        answer == detector.isAntialiasedOnAnyPath(x: x, y: y),
        "the paths disagree at (\(x), \(y)) of \(width)×\(height)"
      )
      require(answer == detector.isAntialiased(y * width + x), "the index form disagrees")
      let offset = (y * width + x) * 4
      if (0..<4).contains(where: { reference[offset + $0] != new[offset + $0] }) {
        differing += 1
        if answer { antialiased += 1 }
      }
    }
  }
  let referenceBitmap = bitmap(reference, width, height)
  let newBitmap = bitmap(new, width, height)
  guard let strict = Bitmap.compare(referenceBitmap, newBitmap),
    let forgiving = Bitmap.compare(referenceBitmap, newBitmap, ignoringAntialiasing: true)
  else {
    require(false, "equal sizes compared as different")
    return 0
  }
  require(strict.failingPixelCount == differing, "byte-exact comparison miscounted")
  require(forgiving.antialiasedPixelCount == antialiased, "forgave other pixels than detected")
  require(
    forgiving.failingPixelCount + forgiving.antialiasedPixelCount == strict.failingPixelCount,
    "failing and forgiven pixels do not add up"
  )
  require(forgiving.maximumDeltaE <= strict.maximumDeltaE, "forgiving raised the largest ΔE")
  return 0
}

private func bitmap(_ bytes: UnsafeMutablePointer<UInt8>, _ width: Int, _ height: Int) -> Bitmap {
  let array = Array(UnsafeBufferPointer(start: bytes, count: width * height * 4))
  guard let bitmap = try? Bitmap(width: width, height: height, rgbaBytes: array) else {
    require(false, "a valid \(width)×\(height) bitmap was refused")
    fatalError()
  }
  return bitmap
}

/// Stops with a message libFuzzer reports as a crash, saving the input.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    FileHandle.standardError.write(Data("invariant violated: \(message())\n".utf8))
    abort()
  }
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzAntialiasing))
