// Measures image comparison and PNG coding against their baselines in one run, and prints
// Markdown tables of medians and ratios for Sources/SnapshotTesting/Documentation.docc/Performance.md.
//
//   swift run -c release --scratch-path .build ImageBenchmark
//   swift run -c release --scratch-path .build ImageBenchmark reference-size
//
// The second prints the reference-size table alone (ReferenceSizeBenchmark.swift).

import DirectLibPNG
import Foundation
@_spi(Benchmarks) import ImageSnapshotTesting
import SnapshotTesting

/// The median wall time of `runs` calls, in seconds.
func median(runs: Int, _ body: () -> Void) -> Double {
  var times: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  return times.sorted()[runs / 2]
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
func ratio(_ value: Double, _ baseline: Double) -> String {
  String(format: "%.2f×", value / baseline)
}

if CommandLine.arguments.dropFirst().first == "antialiasing" {
  try runAntialiasingBenchmark()
  exit(0)
}

if CommandLine.arguments.dropFirst().first == "reference-size" {
  try runReferenceSizeBenchmark()
  exit(0)
}

/// Something like a screenshot: a gradient header, flat panels, text-like strokes and a disc.
func screenshotLike(side: Int) throws -> Bitmap {
  try Bitmap(width: side, height: side) { x, y in
    let scaledY = y * 2048 / side
    let scaledX = x * 2048 / side
    if scaledY < 60 {
      return RGBA(red: UInt8(30 + scaledY), green: UInt8(40 + scaledY), blue: UInt8(90 + scaledY))
    }
    if scaledX < 300 { return RGBA(red: 220, green: 220, blue: 222) }
    let dx = scaledX - 1250
    let dy = scaledY - 650
    if dx * dx + dy * dy < 200 * 200 {
      return RGBA(red: UInt8(200 - (dx * dx + dy * dy) / 400), green: 80, blue: 60)
    }
    let isText =
      scaledY % 24 < 14 && scaledX > 320 && scaledX < 1800 && (scaledX * 7 + scaledY * 13) % 11 < 4
    return isText ? RGBA(red: 20, green: 20, blue: 30) : RGBA(red: 250, green: 250, blue: 252)
  }
}

/// Every `stride`-th pixel of `bitmap` with its red channel raised by `amount`.
func changed(_ bitmap: Bitmap, every stride: Int, by amount: UInt8) throws -> Bitmap {
  var bytes = bitmap.rgbaBytes
  var pixel = 0
  while pixel < bitmap.pixelCount {
    bytes[pixel * 4] = bytes[pixel * 4] &+ amount
    pixel += stride
  }
  return try Bitmap(width: bitmap.width, height: bitmap.height, rgbaBytes: bytes)
}

print("## Comparison (median of runs; perceptualPrecision 0.98)\n")
print(
  "| image | identical: compare | memcmp | ratio | 2% changed | every pixel changed | per megapixel | noise, every pixel changed | per megapixel | noise, one thread | one thread ÷ all cores |"
)
print("|---|---|---|---|---|---|---|---|---|---|---|")
for side in [512, 2048, 4096] {
  let reference = try screenshotLike(side: side)
  let same = try Bitmap(width: side, height: side, rgbaBytes: reference.rgbaBytes)
  let twoPercent = try changed(reference, every: 50, by: 2)
  let everything = try changed(reference, every: 1, by: 3)
  // No two neighbouring pixels alike: every pixel needs its own CIELAB conversion.
  var generator = SystemRandomNumberGenerator()
  let noise = try Bitmap(
    width: side,
    height: side,
    rgbaBytes: (0..<side * side * 4).map {
      $0 % 4 == 3 ? 255 : UInt8.random(in: 0...250, using: &generator)
    }
  )
  let noiseChanged = try changed(noise, every: 1, by: 3)
  let runs = side == 4096 ? 5 : 11
  var sink = 0
  let identical = median(runs: runs * 4) {
    sink &+= Bitmap.compare(reference, same, perceptualPrecision: 0.98)?.failingPixelCount ?? 0
  }
  let memcmpTime = median(runs: runs * 4) {
    reference.rgbaBytes.withUnsafeBytes { left in
      same.rgbaBytes.withUnsafeBytes { right in
        sink &+= Int(memcmp(left.baseAddress!, right.baseAddress!, left.count))
      }
    }
  }
  let few = median(runs: runs) {
    sink &+=
      Bitmap.compare(reference, twoPercent, perceptualPrecision: 0.98)?.failingPixelCount ?? 0
  }
  let all = median(runs: runs) {
    sink &+=
      Bitmap.compare(reference, everything, perceptualPrecision: 0.98)?.differingPixelCount ?? 0
  }
  let noisy = median(runs: runs) {
    sink &+=
      Bitmap.compare(noise, noiseChanged, perceptualPrecision: 0.98)?.differingPixelCount ?? 0
  }
  // The same comparison forced onto one thread: the before and after of splitting large images.
  let noisyOneThread = median(runs: runs) {
    sink &+=
      Bitmap.compareSingleThreaded(noise, noiseChanged, perceptualPrecision: 0.98)?
      .differingPixelCount ?? 0
  }
  let megapixels = Double(side * side) / 1e6
  print(
    "| \(side)² | \(milliseconds(identical)) | \(milliseconds(memcmpTime)) | \(ratio(identical, memcmpTime)) "
      + "| \(milliseconds(few)) | \(milliseconds(all)) | \(milliseconds(all / megapixels)) "
      + "| \(milliseconds(noisy)) | \(milliseconds(noisy / megapixels)) "
      + "| \(milliseconds(noisyOneThread)) | \(ratio(noisyOneThread, noisy)) |"
  )
  if sink == 42 { print("") }
}

try runAntialiasingBenchmark()

print("\n## Matching image assertion, 2048² screenshot-like image, reference on disk (median of 11)\n")
do {
  let bitmap = try screenshotLike(side: 2048)
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("image-benchmark-\(getpid())").path
  defer { try? FileManager.default.removeItem(atPath: folder) }
  print("| assertion (`record: .never`) | time |")
  print("|---|---|")
  let strategies: [(String, Snapshotting<Bitmap, Bitmap>)] = [
    ("`verifySnapshot(of: bitmap, as: .image)`", .image),
    ("`verifySnapshot(of: bitmap, as: .image(perceptualPrecision: 0.98))`", .image(perceptualPrecision: 0.98)),
  ]
  for (index, (name, strategy)) in strategies.enumerated() {
    _ = verifySnapshot(
      of: bitmap, as: strategy, named: "\(index)", record: .all, snapshotDirectory: folder,
      testName: "benchmark")
    var failures = 0
    let time = median(runs: 11) {
      if verifySnapshot(
        of: bitmap, as: strategy, named: "\(index)", record: .never, snapshotDirectory: folder,
        testName: "benchmark") != nil
      {
        failures += 1
      }
    }
    guard failures == 0 else { fatalError("the matching assertion \(name) failed") }
    print("| \(name) | \(milliseconds(time)) |")
  }
}

print("\n## PNG, 2048² screenshot-like image (median of 9)\n")
let image = try screenshotLike(side: 2048)
let encoded = try image.pngData()
var defaultSize = 0
var previousSize = 0
let ours = median(runs: 9) { _ = try? image.pngData() }
let libpngDefaults = median(runs: 9) {
  defaultSize = image.rgbaBytes.withUnsafeBufferPointer {
    direct_encode_rgba_with($0.baseAddress, 2048, 2048, -1, -1, -1, nil)
  }
}
let previous = median(runs: 9) {
  previousSize = image.rgbaBytes.withUnsafeBufferPointer {
    direct_encode_rgba($0.baseAddress, 2048, 2048)
  }
}
let oursDecode = median(runs: 9) { _ = try? Bitmap(pngData: encoded) }
var scratch = [UInt8](repeating: 0, count: 2048 * 2048 * 4)
let directDecode = median(runs: 9) {
  encoded.withUnsafeBytes { data in
    scratch.withUnsafeMutableBufferPointer { pixels in
      _ = direct_decode_rgba(
        data.baseAddress!.assumingMemoryBound(to: UInt8.self),
        data.count,
        pixels.baseAddress,
        pixels.count
      )
    }
  }
}
print("| operation | ImageSnapshotTesting | libpng from C | ratio |")
print("|---|---|---|---|")
print(
  "| encode: smallest file (\(encoded.count / 1024) KiB) vs libpng's defaults (\(defaultSize / 1024) KiB) | \(milliseconds(ours)) | \(milliseconds(libpngDefaults)) | \(ratio(ours, libpngDefaults)) |"
)
print(
  "| encode: smallest file vs the previous settings, zlib 2 without filter (\(previousSize / 1024) KiB) | \(milliseconds(ours)) | \(milliseconds(previous)) | \(ratio(ours, previous)) |"
)
print(
  "| decode the smallest file | \(milliseconds(oursDecode)) | \(milliseconds(directDecode)) | \(ratio(oursDecode, directDecode)) |"
)

/// The anti-aliasing detection section (also `ImageBenchmark antialiasing`, alone).
func runAntialiasingBenchmark() throws {
  print("\n## Anti-aliasing detection, 2048² screenshot-like image, 2% of pixels failing (median of 11)\n")
  let reference = try screenshotLike(side: 2048)
  // Every 50th pixel changed past any tolerance, in the worst place for the detector: most of
  // the image is text-like noise, where few neighbourhoods are flat enough to end it early.
  let scattered = try changed(reference, every: 50, by: 90)
  // The same number of pixels, but one recoloured block (a panel changing colour): its inside is
  // flat, so only its edges need the full test.
  var blockBytes = reference.rgbaBytes
  for y in 700..<990 {
    for x in 900..<1190 { blockBytes[(y * 2048 + x) * 4 + 1] &+= 90 }
  }
  let block = try Bitmap(width: 2048, height: 2048, rgbaBytes: blockBytes)
  var sink = 0
  print(
    "| change | perceptualPrecision | compare: without detection | with detection | ratio | as the image diffing compares: without | with | ratio | pixels failing; forgiven |"
  )
  print("|---|---|---|---|---|---|---|---|---|")
  for (change, twoPercent) in [("scattered pixels", scattered), ("one block", block)] {
  for precision: Float in [1, 0.98] {
    let without = median(runs: 11) {
      sink &+= Bitmap.compare(reference, twoPercent, perceptualPrecision: precision)?
        .failingPixelCount ?? 0
    }
    var result: BitmapComparison?
    let with = median(runs: 11) {
      result = Bitmap.compare(
        reference, twoPercent, perceptualPrecision: precision, ignoringAntialiasing: true)
    }
    // The diffing also keeps a per-pixel map for the difference image, with or without detection.
    let diffingWithout = median(runs: 11) {
      sink &+= Bitmap.compareAsTheImageDiffingDoes(
        reference, twoPercent, perceptualPrecision: precision, ignoringAntialiasing: false
      ).failingPixelCount
    }
    let diffingWith = median(runs: 11) {
      sink &+= Bitmap.compareAsTheImageDiffingDoes(
        reference, twoPercent, perceptualPrecision: precision, ignoringAntialiasing: true
      ).failingPixelCount
    }
    print(
      "| \(change) | \(precision) | \(milliseconds(without)) | \(milliseconds(with)) | \(ratio(with, without)) "
        + "| \(milliseconds(diffingWithout)) | \(milliseconds(diffingWith)) "
        + "| \(ratio(diffingWith, diffingWithout)) "
        + "| \(result?.failingPixelCount ?? -1); \(result?.antialiasedPixelCount ?? -1) |"
    )
  }
  }
  if sink == 42 { print("") }
}
