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

  /// Pixel `index`'s ΔE\*94, 0 for identical pixels: the exact value where it decides whether
  /// the pixel fails, the `Float` estimate elsewhere (where it decides the same). So it depends
  /// on the pixel alone, not on the order or the threads the pass took.
  func deltaE(_ index: Int) -> Float {
    precondition(index >= 0 && index < pixelCount, "Pixel \(index) is outside the map")
    return deltaEStorage[index]
  }

  /// Every pixel's ΔE\*94, in order.
  var deltaEs: [Float] { Array(UnsafeBufferPointer(start: deltaEStorage, count: pixelCount)) }

  /// Where a pass writes, as plain pointers: valid while the map is borrowed for the pass.
  var recorder: Recorder {
    Recorder(deltaEs: deltaEStorage, verdicts: verdictStorage)
  }

  /// The map's memory as plain pointers, for the threads of a pass: each writes only the pixels
  /// of its own range.
  struct Recorder: @unchecked Sendable {
    let deltaEs: UnsafeMutablePointer<Float>
    let verdicts: UnsafeMutablePointer<UInt8>

    /// Stores pixel `index`'s ΔE and one of the ``Verdict`` values; the caller keeps `index`
    /// within the map.
    @inline(__always)
    func record(_ index: Int, deltaE: Float, verdict: UInt8) {
      deltaEs[index] = deltaE
      verdicts[index] = verdict
    }
  }
}
