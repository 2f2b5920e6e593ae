/// Per pixel, what a comparison found: whether the pixel fails (or was forgiven as
/// anti-aliasing), and its ΔE\*94.
///
/// The difference image is drawn from it, so that it needs neither a second pass nor the failure
/// rule again. A pass fills it only when given one, which the image diffing does only once the
/// bytes are known to differ: identical images, the common case, never allocate it.
///
/// It owns its memory, zeroed in `init` and freed in `deinit`, and is `~Copyable` like
/// ``BlockScratch``. A pass writes only the pixels whose bytes differ; the others keep the zeros,
/// which read as passing with ΔE 0.
struct PixelDifferenceMap: ~Copyable {
  let pixelCount: Int
  private let deltaEStorage: UnsafeMutablePointer<Float>
  /// One of the `Verdict` values a pixel.
  private let verdictStorage: UnsafeMutablePointer<UInt8>

  /// A map of `pixelCount` passing pixels with ΔE 0, for one pass to fill.
  init(pixelCount: Int) {
    self.pixelCount = max(pixelCount, 0)
    deltaEStorage = .allocate(capacity: self.pixelCount)
    deltaEStorage.initialize(repeating: 0, count: self.pixelCount)
    verdictStorage = .allocate(capacity: self.pixelCount)
    verdictStorage.initialize(repeating: Verdict.passes, count: self.pixelCount)
  }

  deinit {
    deltaEStorage.deallocate()
    verdictStorage.deallocate()
  }

  /// What a pixel's byte in the map means.
  enum Verdict {
    static let passes: UInt8 = 0
    static let fails: UInt8 = 1
    /// Failed the colour comparison, but is anti-aliasing in one of the images.
    static let antialiased: UInt8 = 2
  }

  /// Whether pixel `index` fails.
  func isFailing(_ index: Int) -> Bool {
    verdict(index) == Verdict.fails
  }

  /// Whether pixel `index` failed the colour comparison but was forgiven as anti-aliasing.
  func isAntialiased(_ index: Int) -> Bool {
    verdict(index) == Verdict.antialiased
  }

  private func verdict(_ index: Int) -> UInt8 {
    precondition(index >= 0 && index < pixelCount, "Pixel \(index) is outside the map")
    return verdictStorage[index]
  }

  /// Marks failing pixel `index` as anti-aliasing, which no longer fails.
  func forgive(_ index: Int) {
    precondition(isFailing(index), "Only a failing pixel can be forgiven")
    verdictStorage[index] = Verdict.antialiased
  }

  /// Calls `body` with the index of every failing pixel, in order. Passing pixels are skipped
  /// eight at a time: in the common case most of the map passes.
  func forEachFailingPixel(_ body: (Int) -> Void) {
    let wordCount = pixelCount / 8
    let words = UnsafeRawPointer(verdictStorage)
    var word = 0
    while word < wordCount {
      if words.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self) != 0 {
        var index = word &* 8
        while index < word &* 8 &+ 8 {
          if verdictStorage[index] == Verdict.fails { body(index) }
          index &+= 1
        }
      }
      word &+= 1
    }
    var index = wordCount &* 8
    while index < pixelCount {
      if verdictStorage[index] == Verdict.fails { body(index) }
      index &+= 1
    }
  }

  /// Pixel `index`'s ΔE\*94, 0 for identical pixels: the exact value where it decides whether
  /// the pixel fails, the `Float` estimate elsewhere (where it decides the same). So it depends
  /// on the pixel alone, not on the order or the threads the pass took.
  func deltaE(_ index: Int) -> Float {
    precondition(index >= 0 && index < pixelCount, "Pixel \(index) is outside the map")
    return deltaEStorage[index]
  }

  /// The exact largest ΔE\*94 of the pixels not forgiven as anti-aliasing, for the images the
  /// map was filled from: the stored values are estimates within ``DeltaEKernel/errorBound``,
  /// so only the pixels whose estimate comes that close to the largest are converted again.
  func largestDeltaE(reference: [UInt8], new: [UInt8]) -> Double {
    precondition(reference.count >= pixelCount * 4 && new.count >= pixelCount * 4)
    var largestEstimate: Float = 0
    var index = 0
    while index < pixelCount {
      if verdictStorage[index] != Verdict.antialiased {
        largestEstimate = max(largestEstimate, deltaEStorage[index])
      }
      index &+= 1
    }
    guard largestEstimate > 0 else { return 0 }
    let threshold = Double(largestEstimate) - 2 * DeltaEKernel.errorBound - 1e-4
    let lookup = LabLookup.shared
    var largest = 0.0
    reference.withUnsafeBufferPointer { referenceBytes in
      new.withUnsafeBufferPointer { newBytes in
        var index = 0
        while index < pixelCount {
          if verdictStorage[index] != Verdict.antialiased, deltaEStorage[index] > 0,
            Double(deltaEStorage[index]) >= threshold
          {
            let exact = lookup.largestDeltaE(
              reference: referenceBytes.baseAddress! + index &* 4,
              new: newBytes.baseAddress! + index &* 4
            )
            largest = max(largest, exact)
          }
          index &+= 1
        }
      }
    }
    return largest
  }

  /// Every pixel's ΔE\*94, in order.
  var deltaEs: [Float] { Array(UnsafeBufferPointer(start: deltaEStorage, count: pixelCount)) }

  /// Where a pass writes, as plain pointers: valid while the map is borrowed for the pass.
  var recorder: Recorder { Recorder(deltaEs: deltaEStorage, verdicts: verdictStorage) }

  struct Recorder {
    let deltaEs: UnsafeMutablePointer<Float>
    let verdicts: UnsafeMutablePointer<UInt8>

    @inline(__always)
    func record(_ index: Int, deltaE: Float, fails: Bool) {
      deltaEs[index] = deltaE
      verdicts[index] = fails ? Verdict.fails : Verdict.passes
    }
  }
}
