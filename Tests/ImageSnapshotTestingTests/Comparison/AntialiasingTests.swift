import Foundation
import Testing

@testable import ImageSnapshotTesting

/// Anti-aliasing detection, by hand on small images and against pixelmatch on rendered shapes.
@Suite struct AntialiasingTests {
  /// Draws shapes with anti-aliased edges (4×4 supersampled coverage), as a renderer would.
  struct Canvas {
    var bitmap: Bitmap

    init(width: Int, height: Int, background: RGBA = .white) throws {
      bitmap = try Bitmap(width: width, height: height, filledWith: background)
    }

    /// Blends `color` over each pixel by the fraction of its 16 subsamples `inside` contains.
    mutating func fill(_ color: RGBA, where inside: (Double, Double) -> Bool) {
      for y in 0..<bitmap.height {
        for x in 0..<bitmap.width {
          var covered = 0
          for sy in 0..<4 {
            for sx in 0..<4 where inside(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4) {
              covered += 1
            }
          }
          guard covered > 0 else { continue }
          let under = bitmap[x: x, y: y]
          func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Double(top) * Double(covered) + Double(bottom) * Double(16 - covered)) / 16)
          }
          bitmap[x: x, y: y] = RGBA(
            red: mix(color.red, under.red),
            green: mix(color.green, under.green),
            blue: mix(color.blue, under.blue),
            alpha: mix(color.alpha, under.alpha)
          )
        }
      }
    }

    mutating func disc(centerX: Double, centerY: Double, radius: Double, _ color: RGBA) {
      fill(color) { x, y in
        (x - centerX) * (x - centerX) + (y - centerY) * (y - centerY) <= radius * radius
      }
    }

    /// A line of `thickness` from (x0, y0) to (x1, y1).
    mutating func line(
      from start: (Double, Double),
      to end: (Double, Double),
      thickness: Double,
      _ color: RGBA
    ) {
      let (dx, dy) = (end.0 - start.0, end.1 - start.1)
      let length = (dx * dx + dy * dy).squareRoot()
      fill(color) { x, y in
        let along = ((x - start.0) * dx + (y - start.1) * dy) / length
        let across = abs((x - start.0) * dy - (y - start.1) * dx) / length
        return along >= 0 && along <= length && across <= thickness / 2
      }
    }
  }

  /// The same drawing, shifted by a fraction of a pixel: what another renderer gives.
  static func renderedPairs() throws -> [(name: String, reference: Bitmap, new: Bitmap)] {
    func scene(shift: Double, translucent: Bool) throws -> Bitmap {
      var canvas = try Canvas(width: 48, height: 40, background: translucent ? .clear : .white)
      canvas.disc(centerX: 14 + shift, centerY: 14, radius: 9.3, RGBA(red: 30, green: 60, blue: 200))
      canvas.line(from: (2, 36), to: (45 + shift, 4), thickness: 1.6, .black)
      canvas.disc(centerX: 34, centerY: 28 + shift, radius: 6.1, RGBA(red: 220, green: 40, blue: 40, alpha: translucent ? 160 : 255))
      canvas.fill(RGBA(red: 0, green: 140, blue: 60)) { x, y in
        x >= 26 + shift && x <= 44.4 && y >= 30.2 && y <= 37.7
      }
      return canvas.bitmap
    }
    return [
      ("opaque, shifted 0.3", try scene(shift: 0, translucent: false), try scene(shift: 0.3, translucent: false)),
      ("opaque, shifted 0.6", try scene(shift: 0, translucent: false), try scene(shift: 0.6, translucent: false)),
      ("translucent, shifted 0.4", try scene(shift: 0, translucent: true), try scene(shift: 0.4, translucent: true)),
    ]
  }

  /// Two images drawn from a few colours, as user interfaces are: rectangles with blended
  /// edges, equal brightness from different colours (pixelmatch counts those as equal), a
  /// translucent colour and some lone pixels; the new image changes about one pixel in twelve,
  /// to another palette colour, a blend or a nudge. Neighbourhoods of every shape the detector
  /// tells apart occur many times, ties between equally dark neighbours included.
  static func fewColourPair(width: Int, height: Int, seed: UInt64) throws -> (Bitmap, Bitmap) {
    var generator = DeltaEKernelTests.SplitMix(state: seed)
    func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
    let palette: [RGBA] = [
      .white, .black, RGBA(red: 200, green: 40, blue: 40), RGBA(red: 40, green: 120, blue: 200),
      // The same brightness as each other, from different colours.
      RGBA(red: 0, green: 100, blue: 0), RGBA(red: 0, green: 100, blue: 0, alpha: 254),
      RGBA(red: 60, green: 160, blue: 90, alpha: 128), RGBA(red: 128, green: 128, blue: 128),
    ]
    func blend(_ a: RGBA, _ b: RGBA) -> RGBA {
      RGBA(
        red: UInt8((Int(a.red) + Int(b.red)) / 2), green: UInt8((Int(a.green) + Int(b.green)) / 2),
        blue: UInt8((Int(a.blue) + Int(b.blue)) / 2), alpha: UInt8((Int(a.alpha) + Int(b.alpha)) / 2)
      )
    }
    var reference = try Bitmap(width: width, height: height, filledWith: palette[0])
    for _ in 0..<(width * height / 40) {
      let (x0, y0) = (random(width), random(height))
      let (x1, y1) = (min(width, x0 + 1 + random(12)), min(height, y0 + 1 + random(9)))
      let colour = palette[random(palette.count)]
      for y in y0..<y1 { for x in x0..<x1 { reference[x: x, y: y] = colour } }
    }
    for _ in 0..<(width * height / 10) {
      let (x, y) = (random(width), random(height))
      let other = reference[x: min(x + 1, width - 1), y: min(y + 1, height - 1)]
      reference[x: x, y: y] =
        random(4) == 0 ? palette[random(palette.count)] : blend(reference[x: x, y: y], other)
    }
    var new = reference
    for _ in 0..<(width * height / 12) {
      let (x, y) = (random(width), random(height))
      let pixel = new[x: x, y: y]
      switch random(3) {
      case 0: new[x: x, y: y] = palette[random(palette.count)]
      case 1: new[x: x, y: y] = blend(pixel, palette[random(palette.count)])
      default: new[x: x, y: y].green = pixel.green &+ UInt8(1 + random(40))
      }
    }
    return (reference, new)
  }

  static func detector<R>(
    _ reference: Bitmap,
    _ new: Bitmap,
    _ body: (Antialiasing) -> R
  ) -> R {
    reference.rgbaBytes.withUnsafeBufferPointer { referenceBytes in
      new.rgbaBytes.withUnsafeBufferPointer { newBytes in
        body(
          Antialiasing(
            width: reference.width,
            height: reference.height,
            reference: referenceBytes.baseAddress!,
            new: newBytes.baseAddress!
          )
        )
      }
    }
  }

  @Test func aStepBetweenTwoFlatAreasIsAntialiasing() throws {
    // Black | grey | white columns: the grey column is a blend between two flat areas.
    var reference = try Bitmap(width: 5, height: 5, filledWith: .white)
    var new = reference
    for y in 0..<5 {
      for x in 0..<2 { reference[x: x, y: y] = .black; new[x: x, y: y] = .black }
      reference[x: 2, y: y] = RGBA(red: 128, green: 128, blue: 128)
      new[x: 2, y: y] = RGBA(red: 100, green: 100, blue: 100)
    }
    Self.detector(reference, new) { detector in
      #expect(detector.isAntialiased(2 * 5 + 2))
    }
  }

  @Test func aDotInAFlatAreaIsNot() throws {
    // A changed pixel whose neighbours all equal each other: content, not an edge.
    let reference = try Bitmap(width: 5, height: 5, filledWith: .white)
    var new = reference
    new[x: 2, y: 2] = .black
    Self.detector(reference, new) { detector in
      #expect(!detector.isAntialiased(2 * 5 + 2))
    }
  }

  @Test func aPixelWithNoBrighterNeighbourIsNot() throws {
    // A grey pixel next to black only: no brighter neighbour, so no slope through it.
    var reference = try Bitmap(width: 3, height: 3, filledWith: .black)
    reference[x: 1, y: 1] = RGBA(red: 90, green: 90, blue: 90)
    var new = reference
    new[x: 1, y: 1] = RGBA(red: 60, green: 60, blue: 60)
    Self.detector(reference, new) { detector in
      #expect(!detector.isAntialiased(4))
    }
  }

  @Test func shiftedShapesHaveAntialiasedEdgesButNotEverywhere() throws {
    for (name, reference, new) in try Self.renderedPairs() {
      let comparison = try #require(Bitmap.compare(reference, new, ignoringAntialiasing: true))
      let strict = try #require(Bitmap.compare(reference, new))
      #expect(comparison.antialiasedPixelCount > 0, "\(name)")
      #expect(
        comparison.failingPixelCount + comparison.antialiasedPixelCount
          == strict.failingPixelCount,
        "\(name): every failing pixel is either still failing or forgiven"
      )
      #expect(comparison.maximumDeltaE <= strict.maximumDeltaE, "\(name)")
    }
  }

  /// After forgiving, the largest ΔE is that of the pixels still failing: checked against each
  /// such pixel compared alone, when a forgiven pixel had the largest ΔE (it must drop) and when
  /// an outlier that is not anti-aliasing keeps it (the comparison then skips recomputing it).
  @Test func theLargestDifferenceLeftIsThatOfThePixelsStillFailing() throws {
    for (name, reference, rendered) in try Self.renderedPairs() {
      var withOutlier = rendered
      withOutlier[x: 46, y: 1] = withOutlier[x: 46, y: 1] == .black ? .white : .black
      for new in [rendered, withOutlier] {
        let comparison = try #require(Bitmap.compare(reference, new, ignoringAntialiasing: true))
        var expected = 0.0
        Self.detector(reference, new) { detector in
          for y in 0..<new.height {
            for x in 0..<new.width where reference[x: x, y: y] != new[x: x, y: y] {
              guard !detector.isAntialiased(y * new.width + x) else { continue }
              let alone = Bitmap.compare(
                try! Bitmap(width: 1, height: 1, filledWith: reference[x: x, y: y]),
                try! Bitmap(width: 1, height: 1, filledWith: new[x: x, y: y])
              )
              expected = max(expected, alone?.maximumDeltaE ?? .nan)
            }
          }
        }
        #expect(comparison.antialiasedPixelCount > 0, "\(name)")
        #expect(abs(comparison.maximumDeltaE - expected) < 1e-9, "\(name)")
      }
    }
  }

  /// Inside the image the detector takes whole neighbourhoods at once, in vectors; it must
  /// classify every pixel as the path that goes one neighbour at a time does, which handles the
  /// edges. Every pixel of each pair is asked, whether it differs or not: more neighbourhoods,
  /// and both answers of each test.
  @Test(arguments: [(97, 61, 1), (64, 64, 2), (31, 17, 3), (200, 150, 4), (5, 5, 5), (3, 40, 6)])
  func theVectorPathInsideAgreesWithThePathForAnyPixel(
    width: Int,
    height: Int,
    seed: UInt64
  ) throws {
    let (reference, new) = try Self.fewColourPair(width: width, height: height, seed: seed)
    var answers: [Bool: Int] = [:]
    var disagreements: [String] = []
    Self.detector(reference, new) { detector in
      for y in 0..<height {
        for x in 0..<width {
          let fast = detector.isAntialiased(x: x, y: y)
          answers[fast, default: 0] += 1
          if fast != detector.isAntialiasedOnAnyPath(x: x, y: y) { disagreements.append("(\(x), \(y))") }
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    if width * height > 1000 {
      #expect((answers[true] ?? 0) > 20, "the pairs must have anti-aliased pixels")
    }
  }

  /// The Python port of pixelmatch (PyPI `pixelmatch`), when it is installed
  /// (`scripts/require-system-packages.sh --with-pixelmatch`).
  static let pixelmatchAvailable: Bool = {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["python3", "-c", "import pixelmatch"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
  }()

  /// For each pixel, what pixelmatch (threshold 0, anti-aliasing detection on) drew: "r" for a
  /// difference, "y" for anti-aliasing, "." for the same.
  static func pixelmatchVerdicts(_ reference: Bitmap, _ new: Bitmap) throws -> [Character] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("pixelmatch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(reference.rgbaBytes).write(to: folder.appendingPathComponent("a"))
    try Data(new.rgbaBytes).write(to: folder.appendingPathComponent("b"))
    let script = """
      import sys
      from pixelmatch import pixelmatch
      folder, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
      a = list(open(folder + "/a", "rb").read())
      b = list(open(folder + "/b", "rb").read())
      out = [0] * len(a)
      pixelmatch(a, b, width, height, out, threshold=0)
      verdicts = []
      for i in range(0, len(out), 4):
          rgb = tuple(out[i:i + 3])
          verdicts.append("r" if rgb == (255, 0, 0) else "y" if rgb == (255, 255, 0) else ".")
      sys.stdout.write("".join(verdicts))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, folder.path, "\(reference.width)", "\(reference.height)"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "pixelmatch exited with \(process.terminationStatus)")
    return Array(String(decoding: data, as: UTF8.self))
  }

  @Test(.enabled(if: pixelmatchAvailable, "needs the pixelmatch Python package"))
  func classifiesThePixelsPixelmatchDoes() throws {
    let drawn = try (1...3 as ClosedRange<UInt64>).map { seed in
      let (reference, new) = try Self.fewColourPair(width: 97, height: 61, seed: seed)
      return ("few colours, seed \(seed)", reference, new)
    }
    for (name, reference, new) in try Self.renderedPairs() + drawn {
      let verdicts = try Self.pixelmatchVerdicts(reference, new)
      try #require(verdicts.count == reference.pixelCount, "\(name)")
      var antialiased = 0
      var mismatches: [Int] = []
      Self.detector(reference, new) { detector in
        for index in 0..<reference.pixelCount where verdicts[index] != "." {
          let ours = detector.isAntialiased(index)
          if ours { antialiased += 1 }
          if ours != (verdicts[index] == "y") { mismatches.append(index) }
        }
      }
      #expect(antialiased > 0, "\(name): the pairs must exercise the detector")
      #expect(verdicts.contains("r"), "\(name): and keep some real differences")
      #expect(mismatches.isEmpty, "\(name): pixels classified differently: \(mismatches.prefix(10))")
    }
  }
}
