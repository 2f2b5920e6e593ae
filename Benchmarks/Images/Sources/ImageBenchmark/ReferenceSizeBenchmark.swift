// The size of references, and the time to encode them, on the corpus of ReferenceCorpus.swift and
// on a noisy 2048² screenshot-like image, all in one run: the previous settings (RGBA, zlib level
// 2, no row filter), the previous smallest encoding (libpng and zlib level 9), this package's
// (Bitmap.pngData(), libdeflate), `oxipng` at level 2 (PyPI's pyoxipng, timed inside one Python
// process by oxipng-times.py) and `optipng -o2` (Debian's, one process a file), both given the
// zlib-2 file (same pixels). Then the decoding of the noisy image's file, ours against libpng
// called from C.
//
//   swift run -c release --scratch-path .build ImageBenchmark reference-size
//
// With REFERENCE_SIZE_KEEP=<folder>, the files of the run (`<name>.png`, the zlib-2 file given to
// the peers; `.new.png`, `.oxipng.png`, `.optipng.png`) are copied there for inspection.

import DirectLibPNG
import Foundation
@_spi(Benchmarks) import ImageSnapshotTesting

/// The sizes and median encoding times of one image.
struct ReferenceSizeRow {
  var image: CorpusImage
  var old: Int
  var previous: Int
  var new: Int
  var oxipng: Int?
  var optipng: Int?
  var previousTime: Double
  var newTime: Double
  var oxipngTime: Double?
  var optipngTime: Double?
}

/// Runs a measurement this many times and keeps the median: fewer for large images.
func referenceRuns(_ image: CorpusImage) -> Int {
  image.width * image.height > 400_000 ? 3 : 7
}

/// The corpus's screenshot-like 2048² image (main.swift) with one pixel in 32 off by up to ±2 in
/// each colour channel, as screen captures of rendered content often are: about 4,000 colours.
func noisyScreenshot() throws -> CorpusImage {
  var bytes = try screenshotLike(side: 2048).rgbaBytes
  var generator = SeededGenerator(seed: 25)
  for pixel in 0..<2048 * 2048 where generator.below(32) == 0 {
    for channel in 0..<3 {
      let value = Int(bytes[pixel * 4 + channel]) + generator.below(5) - 2
      bytes[pixel * 4 + channel] = UInt8(max(0, min(255, value)))
    }
  }
  return CorpusImage(
    name: "noisy-screenshot",
    kind: "screenshot-like, 1 pixel in 32 noisy",
    width: 2048,
    height: 2048,
    rgba: bytes
  )
}

func runReferenceSizeBenchmark() throws {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("reference-size-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let optipng = optipngVersion()
  let load =
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
    .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
  let start = Date()

  let corpus = referenceCorpus()
  let noisy = try noisyScreenshot()
  var rows: [ReferenceSizeRow] = []
  var bitmaps: [String: Bitmap] = [:]
  for image in corpus + [noisy] {
    let bitmap = try Bitmap(width: image.width, height: image.height, rgbaBytes: image.rgba)
    bitmaps[image.name] = bitmap
    let runs = referenceRuns(image)
    var oldBytes: UnsafeMutablePointer<UInt8>?
    let oldSize = image.rgba.withUnsafeBufferPointer {
      direct_encode_rgba_with(
        $0.baseAddress,
        UInt32(image.width),
        UInt32(image.height),
        2,
        0x08,
        0,
        &oldBytes
      )
    }
    guard let oldBytes, oldSize > 0 else { throw BenchmarkError("the old encoding failed") }
    let oldData = Data(bytesNoCopy: oldBytes, count: oldSize, deallocator: .free)
    try oldData.write(to: folder.appendingPathComponent("\(image.name).png"))
    let previous = try bitmap.pngDataWithLibpng()
    let previousTime = median(runs: runs) { _ = try? bitmap.pngDataWithLibpng() }
    let new = try bitmap.pngData()
    let newTime = median(runs: runs) { _ = try? bitmap.pngData() }
    guard try Bitmap(pngData: new) == bitmap, try Bitmap(pngData: previous) == bitmap,
      try Bitmap(pngData: oldData) == bitmap, try bitmap.pngData() == new
    else {
      throw BenchmarkError("\(image.name): an encoding did not give the same pixels back")
    }
    try new.write(to: folder.appendingPathComponent("\(image.name).new.png"))

    var optipngSize: Int?
    var optipngTime: Double?
    if optipng != nil {
      let input = folder.appendingPathComponent("\(image.name).png")
      let output = folder.appendingPathComponent("\(image.name).optipng.png")
      let started = DispatchTime.now().uptimeNanoseconds
      try runOptipng(input: input, output: output)
      optipngTime = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
      // optipng leaves no output when it cannot improve on its input.
      let optimized = (try? Data(contentsOf: output)) ?? oldData
      guard try Bitmap(pngData: optimized) == bitmap else {
        throw BenchmarkError("\(image.name): optipng's file does not give the same pixels back")
      }
      optipngSize = optimized.count
    }
    rows.append(
      ReferenceSizeRow(
        image: image,
        old: oldSize,
        previous: previous.count,
        new: new.count,
        oxipng: nil,
        optipng: optipngSize,
        previousTime: previousTime,
        newTime: newTime,
        oxipngTime: nil,
        optipngTime: optipngTime
      )
    )
  }

  // oxipng, in one Python process after ours, on the same files.
  let oxipng = try runOxipng(folder: folder, images: corpus + [noisy])
  for index in rows.indices {
    guard let (size, time) = oxipng.results[rows[index].image.name] else { continue }
    let file = folder.appendingPathComponent("\(rows[index].image.name).oxipng.png")
    guard try Bitmap(pngData: Data(contentsOf: file)) == bitmaps[rows[index].image.name] else {
      throw BenchmarkError("\(rows[index].image.name): oxipng's file changed the pixels")
    }
    rows[index].oxipng = size
    rows[index].oxipngTime = time
  }

  // Decoding the noisy image's new file: ours (Swift API and setjmp shim) against libpng from C.
  let noisyFile = try Data(
    contentsOf: folder.appendingPathComponent("\(noisy.name).new.png")
  )
  let oursDecode = median(runs: 9) { _ = try? Bitmap(pngData: noisyFile) }
  var scratch = [UInt8](repeating: 0, count: 2048 * 2048 * 4)
  let directDecode = median(runs: 9) {
    noisyFile.withUnsafeBytes { data in
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
  if let keep = ProcessInfo.processInfo.environment["REFERENCE_SIZE_KEEP"] {
    try? FileManager.default.removeItem(atPath: keep)
    try FileManager.default.copyItem(at: folder, to: URL(fileURLWithPath: keep))
  }
  let endLoad =
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
    .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
  printReferenceSizes(
    Array(rows.dropLast()),
    noisy: rows.last!,
    optipng: optipng,
    oxipng: oxipng.version,
    load: load,
    endLoad: endLoad,
    seconds: Date().timeIntervalSince(start),
    decode: (oursDecode, directDecode)
  )
}

func printReferenceSizes(
  _ rows: [ReferenceSizeRow],
  noisy: ReferenceSizeRow,
  optipng: String?,
  oxipng: String?,
  load: String,
  endLoad: String,
  seconds: Double,
  decode: (ours: Double, libpng: Double)
) {
  let pixels = rows.reduce(0) { $0 + $1.image.width * $1.image.height }
  print("## Reference size\n")
  print(
    "\(rows.count) images, \(pixels) pixels; "
      + "\(ProcessInfo.processInfo.activeProcessorCount) cores; "
      + "load average \(load) at the start, \(endLoad) at the end; "
      + "\(oxipng.map { "pyoxipng \($0)" } ?? "pyoxipng not found (pip install pyoxipng)"); "
      + "\(optipng ?? "optipng not found (apt-get install optipng)")."
  )
  print(
    "Encoding times are medians of 3 runs (images above 400,000 pixels) or 7, oxipng's too (in "
      + "one Python process); optipng's is one run of the process.\n"
  )
  let header =
    "| image | kind | size | old: zlib 2, no filter | previous: libpng, zlib 9 | new | oxipng -o2 "
    + "| optipng -o2 | new ÷ oxipng | new ÷ optipng | new ÷ previous | encode: previous | new "
    + "| oxipng | optipng (process) |"
  print(header)
  print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
  func bytes(_ value: Int?) -> String { value.map(String.init) ?? "—" }
  func quotient(_ value: Int, _ baseline: Int?) -> String {
    guard let baseline, baseline > 0 else { return "—" }
    return String(format: "%.3f", Double(value) / Double(baseline))
  }
  func line(_ row: ReferenceSizeRow) -> String {
    "| \(row.image.name) | \(row.image.kind) | \(row.image.width)×\(row.image.height) "
      + "| \(row.old) | \(row.previous) | \(row.new) | \(bytes(row.oxipng)) "
      + "| \(bytes(row.optipng)) "
      + "| \(quotient(row.new, row.oxipng)) | \(quotient(row.new, row.optipng)) "
      + "| \(quotient(row.new, row.previous)) "
      + "| \(milliseconds(row.previousTime)) | \(milliseconds(row.newTime)) "
      + "| \(row.oxipngTime.map(milliseconds) ?? "—") "
      + "| \(row.optipngTime.map(milliseconds) ?? "—") |"
  }
  for row in rows { print(line(row)) }
  func total(_ value: (ReferenceSizeRow) -> Int?) -> Int? {
    rows.allSatisfy { value($0) != nil } ? rows.reduce(0) { $0 + value($1)! } : nil
  }
  func totalTime(_ value: (ReferenceSizeRow) -> Double?) -> Double? {
    rows.allSatisfy { value($0) != nil } ? rows.reduce(0) { $0 + value($1)! } : nil
  }
  let old = total { $0.old }!
  let previous = total { $0.previous }!
  let new = total { $0.new }!
  let oxipngTotal = total { $0.oxipng }
  let optipngTotal = total { $0.optipng }
  let previousTime = totalTime { $0.previousTime }!
  let newTime = totalTime { $0.newTime }!
  let oxipngTime = totalTime { $0.oxipngTime }
  let optipngTime = totalTime { $0.optipngTime }
  print(
    "| **total** | | \(pixels) px | **\(old)** | **\(previous)** | **\(new)** "
      + "| **\(bytes(oxipngTotal))** | **\(bytes(optipngTotal))** "
      + "| **\(quotient(new, oxipngTotal))** | **\(quotient(new, optipngTotal))** "
      + "| **\(quotient(new, previous))** "
      + "| \(milliseconds(previousTime)) | \(milliseconds(newTime)) "
      + "| \(oxipngTime.map(milliseconds) ?? "—") | \(optipngTime.map(milliseconds) ?? "—") |"
  )
  print(
    line(noisy).replacingOccurrences(of: "| noisy-screenshot |", with: "| *noisy-screenshot* |")
  )
  print(
    "\nCorpus totals: new ÷ oxipng \(quotient(new, oxipngTotal)), new ÷ optipng "
      + "\(quotient(new, optipngTotal)), new ÷ previous \(quotient(new, previous)), old ÷ new "
      + "\(quotient(old, new)); encoding new ÷ previous \(ratio(newTime, previousTime)), "
      + "new ÷ oxipng "
      + "\(oxipngTime.map { ratio(newTime, $0) } ?? "—"). Noisy 2048² image (not in the totals): "
      + "new ÷ oxipng \(quotient(noisy.new, noisy.oxipng)) in size, "
      + "\(noisy.oxipngTime.map { ratio(noisy.newTime, $0) } ?? "—") in time; "
      + "new ÷ optipng \(quotient(noisy.new, noisy.optipng)) in size."
  )
  print(
    "Decoding the noisy image's new file (median of 9): ours \(milliseconds(decode.ours)), libpng "
      + "from C \(milliseconds(decode.libpng)), \(ratio(decode.ours, decode.libpng)). "
      + String(format: "The run took %.0f s.", seconds)
  )
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `OptiPNG version 0.7.7`, or nil when `optipng` is not on the PATH.
func optipngVersion() -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["optipng", "-v"]
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return nil }
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  return String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init)
}

func runOptipng(input: URL, output: URL) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["optipng", "-o2", "-quiet", "-out", output.path, input.path]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw BenchmarkError("optipng failed on \(input.lastPathComponent)")
  }
}

/// Runs oxipng-times.py (beside Package.swift) on `folder`'s `<name>.png` files: each image's size
/// and median time, and pyoxipng's version; empty results when python3 or pyoxipng is missing.
func runOxipng(folder: URL, images: [CorpusImage]) throws -> (
  version: String?, results: [String: (Int, Double)]
) {
  let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("oxipng-times.py")
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments =
    ["python3", script.path, folder.path] + images.map { "\($0.name):\(referenceRuns($0))" }
  let pipe = Pipe()
  process.standardOutput = pipe
  guard (try? process.run()) != nil else { return (nil, [:]) }
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { throw BenchmarkError("oxipng-times.py failed") }
  var version: String?
  var results: [String: (Int, Double)] = [:]
  for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
    let fields = line.split(separator: " ")
    if fields.first == "version" {
      version = fields.dropFirst().joined(separator: " ")
    } else if fields.count == 3, let size = Int(fields[1]), let time = Double(fields[2]) {
      results[String(fields[0])] = (size, time)
    }
  }
  return (version, results)
}
