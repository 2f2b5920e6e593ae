/// Per pixel, what a comparison pass found: whether the pixel fails, and its ΔE\*94.
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
  private let failingStorage: UnsafeMutablePointer<Bool>

  /// A map of `pixelCount` passing pixels with ΔE 0, for one pass to fill.
  init(pixelCount: Int) {
    self.pixelCount = max(pixelCount, 0)
    deltaEStorage = .allocate(capacity: self.pixelCount)
    deltaEStorage.initialize(repeating: 0, count: self.pixelCount)
    failingStorage = .allocate(capacity: self.pixelCount)
    failingStorage.initialize(repeating: false, count: self.pixelCount)
  }

  deinit {
    deltaEStorage.deallocate()
    failingStorage.deallocate()
  }

  /// Whether pixel `index` fails.
  func isFailing(_ index: Int) -> Bool {
    precondition(index >= 0 && index < pixelCount, "Pixel \(index) is outside the map")
    return failingStorage[index]
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
  var recorder: Recorder { Recorder(deltaEs: deltaEStorage, failing: failingStorage) }

  struct Recorder {
    let deltaEs: UnsafeMutablePointer<Float>
    let failing: UnsafeMutablePointer<Bool>

    @inline(__always)
    func record(_ index: Int, deltaE: Float, fails: Bool) {
      deltaEs[index] = deltaE
      failing[index] = fails
    }
  }
}
