// The size of references, and the time to encode them, on the corpus of ReferenceCorpus.swift:
// the previous settings (RGBA, zlib level 2, no row filter), libpng's defaults, this package's
// smallest encoding (Bitmap.pngData()) and `optipng -o2` run on the previous file (same pixels).
//
//   swift run -c release --scratch-path .build ImageBenchmark reference-size

import DirectLibPNG
import Foundation
import ImageSnapshotTesting

/// The sizes and median encoding times of one corpus image.
struct ReferenceSizeRow {
  var image: CorpusImage
  var old: Int
  var libpngDefault: Int
  var new: Int
  var optipng: Int?
  var oldTime: Double
  var defaultTime: Double
  var newTime: Double
  var optipngTime: Double?
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

  var rows: [ReferenceSizeRow] = []
  for image in referenceCorpus() {
    let bitmap = try Bitmap(width: image.width, height: image.height, rgbaBytes: image.rgba)
    // Larger images take long to encode: fewer runs, still a median.
    let runs = image.width * image.height > 400_000 ? 3 : 7
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
    let oldTime = median(runs: runs) {
      _ = image.rgba.withUnsafeBufferPointer {
        direct_encode_rgba_with(
          $0.baseAddress,
          UInt32(image.width),
          UInt32(image.height),
          2,
          0x08,
          0,
          nil
        )
      }
    }
    var defaultSize = 0
    let defaultTime = median(runs: runs) {
      defaultSize = image.rgba.withUnsafeBufferPointer {
        direct_encode_rgba_with(
          $0.baseAddress,
          UInt32(image.width),
          UInt32(image.height),
          -1,
          -1,
          -1,
          nil
        )
      }
    }
    let new = try bitmap.pngData()
    let newTime = median(runs: runs) { _ = try? bitmap.pngData() }
    guard try Bitmap(pngData: new) == bitmap, try Bitmap(pngData: oldData) == bitmap else {
      throw BenchmarkError("\(image.name): an encoding did not give the same pixels back")
    }

    var optipngSize: Int?
    var optipngTime: Double?
    if optipng != nil {
      let input = folder.appendingPathComponent("\(image.name).png")
      let output = folder.appendingPathComponent("\(image.name).optipng.png")
      try oldData.write(to: input)
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
        libpngDefault: defaultSize,
        new: new.count,
        optipng: optipngSize,
        oldTime: oldTime,
        defaultTime: defaultTime,
        newTime: newTime,
        optipngTime: optipngTime
      )
    )
  }
  printReferenceSizes(rows, optipng: optipng, load: load, seconds: Date().timeIntervalSince(start))
}

func printReferenceSizes(
  _ rows: [ReferenceSizeRow],
  optipng: String?,
  load: String,
  seconds: Double
) {
  let pixels = rows.reduce(0) { $0 + $1.image.width * $1.image.height }
  print("## Reference size\n")
  print(
    "\(rows.count) images, \(pixels) pixels; \(ProcessInfo.processInfo.activeProcessorCount) cores; "
      + "load average \(load) at the start; \(optipng ?? "optipng not found (apt-get install optipng)")."
  )
  print("Encoding times are medians of 3 runs (images above 400,000 pixels) or 7.\n")
  print(
    "| image | kind | size | old: zlib 2, no filter | libpng defaults | new | optipng -o2 | new ÷ optipng | old ÷ optipng | encode: old | libpng defaults | new | optipng (1 run, process) |"
  )
  print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
  func bytes(_ value: Int?) -> String { value.map(String.init) ?? "—" }
  func quotient(_ value: Int, _ baseline: Int?) -> String {
    guard let baseline, baseline > 0 else { return "—" }
    return String(format: "%.3f", Double(value) / Double(baseline))
  }
  for row in rows {
    print(
      "| \(row.image.name) | \(row.image.kind) | \(row.image.width)×\(row.image.height) "
        + "| \(row.old) | \(row.libpngDefault) | \(row.new) | \(bytes(row.optipng)) "
        + "| \(quotient(row.new, row.optipng)) | \(quotient(row.old, row.optipng)) "
        + "| \(milliseconds(row.oldTime)) | \(milliseconds(row.defaultTime)) "
        + "| \(milliseconds(row.newTime)) | \(row.optipngTime.map(milliseconds) ?? "—") |"
    )
  }
  let old = rows.reduce(0) { $0 + $1.old }
  let libpngDefault = rows.reduce(0) { $0 + $1.libpngDefault }
  let new = rows.reduce(0) { $0 + $1.new }
  let optimized = rows.allSatisfy { $0.optipng != nil } ? rows.reduce(0) { $0 + $1.optipng! } : nil
  let oldTime = rows.reduce(0) { $0 + $1.oldTime }
  let defaultTime = rows.reduce(0) { $0 + $1.defaultTime }
  let newTime = rows.reduce(0) { $0 + $1.newTime }
  let optipngTime =
    rows.allSatisfy { $0.optipngTime != nil }
    ? rows.reduce(0) { $0 + $1.optipngTime! } : nil
  print(
    "| **total** | | \(pixels) px | **\(old)** | **\(libpngDefault)** | **\(new)** "
      + "| **\(bytes(optimized))** | **\(quotient(new, optimized))** | **\(quotient(old, optimized))** "
      + "| \(milliseconds(oldTime)) | \(milliseconds(defaultTime)) | \(milliseconds(newTime)) "
      + "| \(optipngTime.map(milliseconds) ?? "—") |"
  )
  print(
    "\nTotals: new ÷ optipng \(quotient(new, optimized)), old ÷ optipng \(quotient(old, optimized)), "
      + "old ÷ new \(quotient(old, new)), libpng defaults ÷ new \(quotient(libpngDefault, new)); "
      + "encoding new ÷ old \(ratio(newTime, oldTime)), new ÷ libpng defaults \(ratio(newTime, defaultTime)). "
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
