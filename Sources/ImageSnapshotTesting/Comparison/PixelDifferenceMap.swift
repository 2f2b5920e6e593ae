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

  /// The exact largest ΔE\*94 of the pixels not forgiven as anti-aliasing, for the images the
  /// map was filled from. The stored values are estimates within ``DeltaEKernel/errorBound``, so
  /// only the pixels whose estimate comes that close to the largest are converted again.
  ///
  /// - Parameter failing: The pixels that still fail, in lists (one per range of a pass), if any:
  ///   a failing pixel's ΔE exceeds every passing pixel's, so only they need looking at.
  ///   Otherwise every pixel is.
  func largestDeltaE(reference: [UInt8], new: [UInt8], failing: [[Int]]) -> Double {
    precondition(reference.count >= pixelCount * 4 && new.count >= pixelCount * 4)
    let candidates =
      failing.allSatisfy(\.isEmpty)
      ? [(0..<pixelCount).filter { verdictStorage[$0] != Verdict.antialiased && deltaEStorage[$0] > 0 }]
      : failing
    var largestEstimate: Float = 0
    for list in candidates {
      for index in list { largestEstimate = max(largestEstimate, deltaEStorage[index]) }
    }
    guard largestEstimate > 0 else { return 0 }
    let threshold = Double(largestEstimate) - 2 * DeltaEKernel.errorBound - 1e-4
    let lookup = LabLookup.shared
    var largest = 0.0
    // Flat images repeat pairs: a small direct-mapped cache of the pairs converted last spares
    // converting each again, for a multiplication and a comparison (a `Set` costs a hash).
    var recent = InlineArray<64, UInt64>(repeating: 0)
    var recentIsSet = InlineArray<64, Bool>(repeating: false)
    reference.withUnsafeBufferPointer { referenceBytes in
      new.withUnsafeBufferPointer { newBytes in
        let referenceBase = referenceBytes.baseAddress!
        let newBase = newBytes.baseAddress!
        for list in candidates {
          for index in list where Double(deltaEStorage[index]) >= threshold {
            let offset = index &* 4
            let pair =
              UInt64(UnsafeRawPointer(referenceBase).loadUnaligned(fromByteOffset: offset, as: UInt32.self))
              << 32
              | UInt64(UnsafeRawPointer(newBase).loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let slot = Int(truncatingIfNeeded: (pair &* 0x9E37_79B9_7F4A_7C15) >> 58)
            if recentIsSet[slot] && recent[slot] == pair { continue }
            (recent[slot], recentIsSet[slot]) = (pair, true)
            let exact = lookup.largestDeltaE(reference: referenceBase + offset, new: newBase + offset)
            largest = max(largest, exact)
          }
        }
      }
    }
    return largest
  }

  /// Every pixel's ΔE\*94, in order.
  var deltaEs: [Float] { Array(UnsafeBufferPointer(start: deltaEStorage, count: pixelCount)) }

  /// Where a pass writes, as plain pointers: valid while the map is borrowed for the pass.
  var recorder: Recorder {
    Recorder(pixelCount: pixelCount, deltaEs: deltaEStorage, verdicts: verdictStorage)
  }

  /// The map's memory as plain pointers, for the threads of a pass: each writes only the pixels
  /// of its own range.
  struct Recorder: @unchecked Sendable {
    let pixelCount: Int
    let deltaEs: UnsafeMutablePointer<Float>
    let verdicts: UnsafeMutablePointer<UInt8>

    @inline(__always)
    func record(_ index: Int, deltaE: Float, fails: Bool) {
      deltaEs[index] = deltaE
      verdicts[index] = fails ? Verdict.fails : Verdict.passes
    }

    /// Marks failing pixel `index` as anti-aliasing, which no longer fails.
    func forgive(_ index: Int) {
      precondition(
        index >= 0 && index < pixelCount && verdicts[index] == Verdict.fails,
        "Only a failing pixel can be forgiven"
      )
      verdicts[index] = Verdict.antialiased
    }

    /// Calls `body` with the index of every failing pixel in `range`, in order. The map is read
    /// eight pixels at a time, and only the non-zero bytes of a word are looked at; after four
    /// words that pass, it skips 64 at a time: in the common case most of the map passes.
    func forEachFailingPixel(in range: Range<Int>, _ body: (Int) -> Void) {
      precondition(range.lowerBound >= 0 && range.upperBound <= pixelCount)
      let words = UnsafeRawPointer(verdicts)
      let end = range.upperBound
      var index = range.lowerBound
      var passingWords = 0
      while index < end {
        guard index & 7 == 0, index &+ 8 <= end else {
          if verdicts[index] == Verdict.fails { body(index) }
          index &+= 1
          continue
        }
        var word = words.load(fromByteOffset: index, as: UInt64.self)
        if word == 0 {
          index &+= 8
          passingWords &+= 1
          // A long run of passing pixels is likely to go on: try a whole cache line.
          guard passingWords == 4 else { continue }
          passingWords = 0
          while index &+ 64 <= end {
            var any: UInt64 = 0
            var offset = 0
            while offset < 64 {
              any |= words.load(fromByteOffset: index &+ offset, as: UInt64.self)
              offset &+= 8
            }
            guard any == 0 else { break }
            index &+= 64
          }
          continue
        }
        passingWords = 0
        while word != 0 {
          let byte = word.trailingZeroBitCount &>> 3
          if verdicts[index &+ byte] == Verdict.fails { body(index &+ byte) }
          word &= ~(0xFF &<< UInt64(byte &<< 3))
        }
        index &+= 8
      }
    }
  }
}
