import CPrefetch
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The unsafe pixel loops: raw pointers, lookup tables, no allocation per pixel, and `while`
// loops rather than `for`-`in`, which stay fast in unoptimised (debug) builds too. Each step
// copies what it reads in its loop into locals, which stay in registers. Here are the pass
// (`ComparisonPass`), what it writes (`PixelDifferenceMap`, owned by a `~Copyable` value that
// frees it in `deinit`), the anti-aliasing test it runs on failing pixels (`Antialiasing`,
// which reads both images through their pointers, with vector loads and prefetches), and the
// one entry from arrays (`ComparisonPass.compare`, `ComparisonPass.bytesAreEqual`), where the
// images' pointers are taken for as long as the pass runs.

/// One comparison of two equally sized RGBA8 images, on raw pointers that stay valid until it
/// returns.
///
/// Differing pixels go through in blocks of ``BlockScratch/capacity``:
/// 1. their colours are gathered into per-channel arrays, in linear light;
/// 2. ``DeltaEKernel`` estimates all their ΔE\*94 at once, in vectorised `Float` code;
/// 3. they are counted, and only a pixel whose estimate is within ``DeltaEKernel/errorBound`` of
///    the tolerance or of the largest ΔE so far is converted again, exactly, by ``LabLookup``.
///    The counts and the largest ΔE are therefore those of ``LabLookup`` alone. When the pass
///    ignores anti-aliasing, a failing pixel that ``Antialiasing`` forgives is counted apart and
///    leaves the largest ΔE alone, so detection costs nothing beyond the failing pixels' tests.
///
/// Large images are split into ranges of whole blocks (``PixelComparisonThreading``). Each range
/// has its own scratch memory, counters and exact largest ΔE, and writes only its own part of
/// the map; the counts add and the largest ΔE is the largest of the ranges', so the result
/// does not depend on the split.
///
/// `@unchecked Sendable` because the threads of a parallel pass share it: they only read the
/// images and tables, and each writes a disjoint range of the map.
struct ComparisonPass: @unchecked Sendable {
  let reference: UnsafeRawPointer
  let new: UnsafeRawPointer
  let pixelCount: Int
  let tolerance: Double?
  /// Where each differing pixel's verdict and ΔE go, when a map was asked for.
  let map: PixelDifferenceMap.Recorder?
  /// The test that forgives a failing pixel as anti-aliasing, when the comparison ignores it.
  let antialiasing: Antialiasing?
  let lookup = LabLookup.shared

  /// Compares the first `pixelCount` pixels of two RGBA8 arrays, through their pointers for as
  /// long as the pass runs: on the calling thread, or in `rangeCount` ranges on all cores.
  static func compare(
    _ reference: [UInt8],
    _ new: [UInt8],
    pixelCount: Int,
    tolerance: Double?,
    rangeCount: Int,
    map: PixelDifferenceMap.Recorder?,
    antialiasing: Antialiasing?
  ) -> PixelComparisonTally {
    precondition(pixelCount * 4 <= min(reference.count, new.count), "The images are too small")
    return reference.withUnsafeBytes { referenceBuffer in
      new.withUnsafeBytes { newBuffer in
        guard let referenceBase = referenceBuffer.baseAddress, let newBase = newBuffer.baseAddress
        else { return PixelComparisonTally() }
        let pass = ComparisonPass(
          reference: referenceBase,
          new: newBase,
          pixelCount: pixelCount,
          tolerance: tolerance,
          map: map,
          antialiasing: antialiasing
        )
        return pass.run(rangeCount: rangeCount)
      }
    }
  }

  /// The whole image: on the calling thread, or in `rangeCount` ranges on all cores, merged.
  func run(rangeCount: Int) -> PixelComparisonTally {
    guard rangeCount > 1 else { return tally(pixels: 0..<pixelCount) }
    let ranges = PixelComparisonThreading.pixelRanges(
      pixelCount: pixelCount,
      rangeCount: rangeCount
    )
    var tallies = [PixelComparisonTally](repeating: PixelComparisonTally(), count: rangeCount)
    tallies.withUnsafeMutableBufferPointer { buffer in
      let slots = TallySlots(buffer: buffer)
      DispatchQueue.concurrentPerform(iterations: rangeCount) { range in
        guard !ranges[range].isEmpty else { return }
        slots.buffer[range] = tally(pixels: ranges[range])
      }
    }
    var merged = PixelComparisonTally()
    for tally in tallies { merged.add(tally) }
    return merged
  }

  /// Pixels `range`, block by block.
  func tally(pixels range: Range<Int>) -> PixelComparisonTally {
    let scratch = BlockScratch()
    let kernel = DeltaEKernel()
    var maximum = RunningMaximum()
    var tally = PixelComparisonTally()
    var blockStart = range.lowerBound
    while blockStart < range.upperBound {
      let block = blockStart..<min(blockStart &+ BlockScratch.capacity, range.upperBound)
      let queue = gather(block, into: scratch)
      estimate(queue, in: scratch, with: kernel)
      count(queue, in: scratch, maximum: &maximum, into: &tally)
      tally.differingPixelCount &+= queue.pixelCount
      blockStart = block.upperBound
    }
    tally.maximumDeltaE = maximum.deltaE
    return tally
  }

  /// Step 1: queues the block's differing pixels and, in linear light, the colours of each pair.
  /// Rendered images repeat colours in runs: a pair equal to the previous one shares its slot
  /// (its ΔE) instead of taking a new one.
  private func gather(_ block: Range<Int>, into scratch: borrowing BlockScratch) -> BlockQueue {
    let reference = reference
    let new = new
    let pixelIndices = scratch.pixelIndices
    let pixelSlots = scratch.pixelSlots
    var queue = BlockQueue()
    var lastReferencePixel: UInt32 = 0
    var lastNewPixel: UInt32 = 0
    var index = block.lowerBound
    while index < block.upperBound {
      let offset = index &* 4
      let referencePixel = reference.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      let newPixel = new.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      if referencePixel != newPixel {
        if referencePixel != lastReferencePixel || newPixel != lastNewPixel {
          addSlot(at: offset, to: &queue, in: scratch)
          lastReferencePixel = referencePixel
          lastNewPixel = newPixel
        }
        pixelIndices[queue.pixelCount] = index
        pixelSlots[queue.pixelCount] = queue.slotCount &- 1
        queue.pixelCount &+= 1
      }
      index &+= 1
    }
    return queue
  }

  /// Stores the pair at byte `offset` as the next slot, composited over black; and over white
  /// too when either pixel is translucent (opaque pairs look the same on both).
  @inline(__always)
  private func addSlot(
    at offset: Int,
    to queue: inout BlockQueue,
    in scratch: borrowing BlockScratch
  ) {
    let linear = lookup.linearFloat
    let referenceBytes = (reference + offset).assumingMemoryBound(to: UInt8.self)
    let newBytes = (new + offset).assumingMemoryBound(to: UInt8.self)
    let referenceAlpha = Float(referenceBytes[3]) * (1.0 / 255)
    let newAlpha = Float(newBytes[3]) * (1.0 / 255)
    let r1 = linear[Int(referenceBytes[0])] * referenceAlpha
    let g1 = linear[Int(referenceBytes[1])] * referenceAlpha
    let b1 = linear[Int(referenceBytes[2])] * referenceAlpha
    let r2 = linear[Int(newBytes[0])] * newAlpha
    let g2 = linear[Int(newBytes[1])] * newAlpha
    let b2 = linear[Int(newBytes[2])] * newAlpha
    scratch.overBlack.store(queue.slotCount, reference: (r1, g1, b1), new: (r2, g2, b2))
    if referenceBytes[3] != 255 || newBytes[3] != 255 {
      let referenceLift = 1 - referenceAlpha
      let newLift = 1 - newAlpha
      scratch.overWhite.store(
        queue.whiteCount,
        reference: (r1 + referenceLift, g1 + referenceLift, b1 + referenceLift),
        new: (r2 + newLift, g2 + newLift, b2 + newLift)
      )
      scratch.whiteSlots[queue.whiteCount] = queue.slotCount
      queue.whiteCount &+= 1
    }
    queue.slotCount &+= 1
  }

  /// Step 2: every slot's estimated ΔE at once, the larger of over black and over white.
  private func estimate(
    _ queue: BlockQueue,
    in scratch: borrowing BlockScratch,
    with kernel: DeltaEKernel
  ) {
    let estimates = scratch.estimates
    let whiteEstimates = scratch.whiteEstimates
    let whiteSlots = scratch.whiteSlots
    let stride = BlockScratch.stride
    kernel.deltaEs(
      of: scratch.overBlack,
      count: queue.slotCount,
      workspace: scratch.workspace,
      stride: stride,
      into: estimates
    )
    kernel.deltaEs(
      of: scratch.overWhite,
      count: queue.whiteCount,
      workspace: scratch.workspace,
      stride: stride,
      into: whiteEstimates
    )
    var white = 0
    while white < queue.whiteCount {
      let slot = whiteSlots[white]
      if whiteEstimates[white] > estimates[slot] { estimates[slot] = whiteEstimates[white] }
      white &+= 1
    }
  }

  /// Step 3: counts the block's failing and forgiven pixels into `tally`, converting exactly
  /// where the estimate's error could matter; records each pixel in the map when there is one.
  ///
  /// A pixel's exact ΔE is needed near the tolerance, to decide whether it fails, and where it
  /// could raise the largest ΔE, which a forgiven pixel must not: so the anti-aliasing test comes
  /// between the two. Runs of the same pair share one conversion.
  private func count(
    _ queue: BlockQueue,
    in scratch: borrowing BlockScratch,
    maximum: inout RunningMaximum,
    into tally: inout PixelComparisonTally
  ) {
    let map = map
    let antialiasing = antialiasing
    let estimates = scratch.estimates
    let pixelIndices = scratch.pixelIndices
    let pixelSlots = scratch.pixelSlots
    let exact = tolerance == nil
    let limit = tolerance ?? 0
    let margin = DeltaEKernel.errorBound
    var cursor = PixelCursor(width: antialiasing?.width ?? 1)
    // The slot of the last pixel, its exact ΔE once converted, and whether the running maximum
    // has seen that pair.
    var lastSlot = -1
    var lastExact: Double?
    var lastSeen = false
    var item = 0
    // How many pixels ahead the rows an anti-aliasing test reads are asked for: enough for
    // them to arrive before that pixel's turn.
    let lookahead = 6
    while item < queue.pixelCount {
      let slot = pixelSlots[item]
      let pixelIndex = pixelIndices[item]
      if let antialiasing, item &+ lookahead < queue.pixelCount {
        antialiasing.prefetchRowsBelow(pixelIndices[item &+ lookahead])
      }
      item &+= 1
      let estimate = estimates[slot]
      if slot != lastSlot { (lastSlot, lastExact, lastSeen) = (slot, nil, false) }
      let nearLimit =
        !exact && Double(estimate) - limit <= margin && limit - Double(estimate) <= margin
      if nearLimit && lastExact == nil { lastExact = exactDeltaE(at: pixelIndex, maximum) }
      let fails = exact || (lastExact ?? Double(estimate)) > limit
      // The exact value only where it decides: what is stored must not depend on the running
      // maximum, which differs between one thread and several.
      let stored = nearLimit ? Float(lastExact ?? 0) : estimate
      if fails, let antialiasing {
        let (x, y) = cursor.position(of: pixelIndex)
        if antialiasing.isAntialiased(x: x, y: y) {
          tally.antialiasedPixelCount &+= 1
          map?.record(pixelIndex, deltaE: stored, verdict: PixelDifferenceMap.Verdict.antialiased)
          continue
        }
      }
      if fails { tally.failingPixelCount &+= 1 }
      map?.record(
        pixelIndex,
        deltaE: stored,
        verdict: fails ? PixelDifferenceMap.Verdict.fails : PixelDifferenceMap.Verdict.passes
      )
      guard !lastSeen else { continue }
      lastSeen = true
      if lastExact == nil && Double(estimate) + margin > maximum.deltaE {
        lastExact = exactDeltaE(at: pixelIndex, maximum)
      }
      if let lastExact { maximum.raise(to: lastExact, at: pixelIndex &* 4, reference, new) }
    }
  }

  /// The exact ΔE of pixel `index`; the running maximum's when it is of the same pair.
  @inline(__always)
  private func exactDeltaE(at index: Int, _ maximum: RunningMaximum) -> Double {
    let offset = index &* 4
    let referencePixel = reference.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    let newPixel = new.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    if referencePixel == maximum.referencePixel && newPixel == maximum.newPixel {
      return maximum.deltaE
    }
    return lookup.largestDeltaE(
      reference: (reference + offset).assumingMemoryBound(to: UInt8.self),
      new: (new + offset).assumingMemoryBound(to: UInt8.self)
    )
  }
}

/// What step 1 queued from one block: its differing pixels, the slots (distinct pairs) they
/// point to, and how many of those slots are queued over white as well.
private struct BlockQueue {
  var pixelCount = 0
  var slotCount = 0
  var whiteCount = 0
}

/// The largest ΔE of a range so far, and the pair that gave it: that pair recurs in flat images,
/// and needs no second conversion. Equal pixels never get this far, so an equal pair is a safe
/// initial key.
private struct RunningMaximum {
  var deltaE = 0.0
  var referencePixel: UInt32 = 0
  var newPixel: UInt32 = 0

  /// Takes `deltaE`, the exact ΔE of the pair at byte `offset`, if it is larger.
  @inline(__always)
  mutating func raise(
    to deltaE: Double,
    at offset: Int,
    _ reference: UnsafeRawPointer,
    _ new: UnsafeRawPointer
  ) {
    guard deltaE > self.deltaE else { return }
    self = RunningMaximum(
      deltaE: deltaE,
      referencePixel: reference.loadUnaligned(fromByteOffset: offset, as: UInt32.self),
      newPixel: new.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    )
  }
}

/// Where the threads of a parallel pass put their tallies, one slot each, written by that
/// thread alone and read after all have finished.
private struct TallySlots: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<PixelComparisonTally>
}

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

/// Anti-aliasing detection: whether a pixel is probably an edge's blend of its neighbours, which
/// another renderer may blend differently, rather than content.
///
/// The test is V. Vysniauskas's "Anti-aliased pixel and intensity slope detector" (2009) as
/// pixelmatch applies it, with the same arithmetic, so that both classify the same pixels:
/// 1. among its eight neighbours (fewer at an edge of the image, which counts as one equal
///    neighbour), a candidate has at most two of exactly its brightness, at least one darker and
///    at least one brighter;
/// 2. its darkest or its brightest neighbour (the first found, scanning columns then rows) sits
///    in a flat area: at least three neighbours of its exact colour, in both images.
///
/// Brightness is the Y of YIQ, of the colour blended over white.
///
/// Two paths give the same answers (a test asks both about every pixel): inside the image,
/// whole neighbourhoods at once, in vectors; near its edges, where a pixel has fewer than eight
/// neighbours, one neighbour at a time.
///
/// Used only on pixels that already fail, so its cost grows with the difference, not the image.
/// `@unchecked Sendable`: threads share it to read the images, which nothing writes meanwhile.
struct Antialiasing: @unchecked Sendable {
  let width: Int
  let height: Int
  /// The two images' RGBA bytes, `width × height × 4` each, valid while this value is used.
  let reference: UnsafeRawPointer
  let new: UnsafeRawPointer
  /// ``BrightnessTables/luma``, read once: a global read in the loops would check its
  /// initialisation every time.
  private let luma: UnsafePointer<Double>

  /// Calls `body` with the test on two RGBA8 images of `width × height` pixels, valid only
  /// until `body` returns: the pointers it holds are the arrays' own.
  static func reading<Result>(
    width: Int,
    height: Int,
    reference: [UInt8],
    new: [UInt8],
    _ body: (Antialiasing) -> Result
  ) -> Result {
    precondition(
      width * height * 4 <= min(reference.count, new.count),
      "The images are too small"
    )
    return reference.withUnsafeBufferPointer { referenceBytes in
      new.withUnsafeBufferPointer { newBytes in
        guard let referenceBase = referenceBytes.baseAddress, let newBase = newBytes.baseAddress
        else { preconditionFailure("An image of no pixels has nothing to test") }
        return body(
          Antialiasing(width: width, height: height, reference: referenceBase, new: newBase)
        )
      }
    }
  }

  init(width: Int, height: Int, reference: UnsafePointer<UInt8>, new: UnsafePointer<UInt8>) {
    self.width = width
    self.height = height
    self.reference = UnsafeRawPointer(reference)
    self.new = UnsafeRawPointer(new)
    luma = BrightnessTables.luma
  }

  /// Whether pixel `index` is anti-aliasing in either image, the way pixelmatch decides.
  func isAntialiased(_ index: Int) -> Bool {
    isAntialiased(x: index % width, y: index / width)
  }

  /// Whether the pixel at column `x` and row `y` is anti-aliasing in either image. Callers that
  /// walk the image know both, and spare the two integer divisions of the index form, which cost
  /// more than the rest of a quick answer.
  func isAntialiased(x: Int, y: Int) -> Bool {
    guard hasWindow(x, y) else { return isAntialiasedOnAnyPath(x: x, y: y) }
    // Most neighbourhoods are settled by their equal pixels alone, here, without a call.
    let referenceWindow = window(x, y, in: reference)
    if Self.needsBrightness(referenceWindow)
      && isAntialiasedInside(referenceWindow, x: x, y: y, in: reference, other: new)
    {
      return true
    }
    let newWindow = window(x, y, in: new)
    return Self.needsBrightness(newWindow)
      && isAntialiasedInside(newWindow, x: x, y: y, in: new, other: reference)
  }

  /// Asks the processor to fetch the two rows below pixel `index`, in both images, which the
  /// test of that pixel reads. A comparison pass streams the images row by row: the rows above
  /// are still in the cache, those below are not yet, and waiting for them cost a tenth of the
  /// test's time. Harmless for any index in the image.
  @inline(__always)
  func prefetchRowsBelow(_ index: Int) {
    let row = width &* 4
    let last = (width &* height &- 1) &* 4
    let below = min(index &* 4 &+ row, last)
    let twoBelow = min(index &* 4 &+ 2 &* row, last)
    snapshot_testing_prefetch(reference + below)
    snapshot_testing_prefetch(new + below)
    snapshot_testing_prefetch(reference + twoBelow)
    snapshot_testing_prefetch(new + twoBelow)
  }

  /// ``isAntialiased(x:y:)`` by the path that handles any pixel, the edges of the image
  /// included, one neighbour at a time; the faster path inside must agree with it everywhere.
  func isAntialiasedOnAnyPath(x: Int, y: Int) -> Bool {
    isAntialiased(x: x, y: y, in: reference, other: new)
      || isAntialiased(x: x, y: y, in: new, other: reference)
  }

  // MARK: Inside the image: whole neighbourhoods at once

  /// Three rows of four pixels, from column `x - 1` of rows `y - 1`, `y` and `y + 1`: a pixel's
  /// neighbourhood and, in the last lanes, one column more that is never looked at.
  private struct Window {
    var above: SIMD4<UInt32>
    var middle: SIMD4<UInt32>
    var below: SIMD4<UInt32>
  }

  /// Whether pixel (x, y) has its eight neighbours and its ``Window`` can be read: the window's
  /// spare column must not run past the end of the image, which only the last row can.
  @inline(__always)
  private func hasWindow(_ x: Int, _ y: Int) -> Bool {
    x > 0 && y > 0 && x < width &- 1 && y < height &- 1 && (y < height &- 2 || x < width &- 2)
  }

  @inline(__always)
  private func window(_ x: Int, _ y: Int, in image: UnsafeRawPointer) -> Window {
    let row = width &* 4
    let first = ((y &- 1) &* width &+ x &- 1) &* 4
    return Window(
      above: image.loadUnaligned(fromByteOffset: first, as: SIMD4<UInt32>.self),
      middle: image.loadUnaligned(fromByteOffset: first &+ row, as: SIMD4<UInt32>.self),
      below: image.loadUnaligned(fromByteOffset: first &+ 2 &* row, as: SIMD4<UInt32>.self)
    )
  }

  /// How many of the eight neighbours of the window's centre have exactly its RGBA.
  @inline(__always)
  private static func equalNeighbours(in window: Window) -> Int {
    // The centre is equal to itself.
    matches(of: window.middle[1], in: window, centre: 1)
  }

  /// Whether the eight neighbours of the window's centre all have the same RGBA.
  @inline(__always)
  private static func neighboursAreAlike(in window: Window) -> Bool {
    let first = window.above[0]
    return matches(of: first, in: window, centre: window.middle[1] == first ? 1 : 0) == 8
  }

  /// How many of the window's nine pixels are `pixel`, less `centre`.
  @inline(__always)
  private static func matches(of pixel: UInt32, in window: Window, centre: Int) -> Int {
    let wanted = SIMD4<UInt32>(repeating: pixel)
    // A comparison's lanes are -1 where true: summed as integers, they count the matches
    // negatively, in one instruction a row (`replacing(with:where:)` takes several).
    let sum =
      lanes(of: window.above .== wanted) &+ lanes(of: window.middle .== wanted)
      &+ lanes(of: window.below .== wanted)
    let counted = sum & SIMD4(-1, -1, -1, 0)
    return Int(0 &- counted.wrappedSum()) &- centre
  }

  /// A mask's lanes as the integers it holds: -1 for true, 0 for false.
  @inline(__always)
  private static func lanes(of mask: SIMDMask<SIMD4<Int32>>) -> SIMD4<Int32> {
    unsafeBitCast(mask, to: SIMD4<Int32>.self)
  }

  /// Whether the test of the window's centre goes on to its neighbours' brightness: it ends
  /// when more than two neighbours have the centre's exact colour, or when all eight have one
  /// colour (a changed pixel on a plain background), which makes them all as dark as each other
  /// and never both darker and brighter.
  @inline(__always)
  private static func needsBrightness(_ window: Window) -> Bool {
    equalNeighbours(in: window) <= 2 && !neighboursAreAlike(in: window)
  }

  /// ``isAntialiased(x:y:in:other:)`` for a pixel with a ``Window`` that
  /// ``needsBrightness(_:)``: the same test, with the eight neighbours' brightness computed at
  /// once, in vectors of `Double`s with the same operations in the same order (so to the bit),
  /// and no branch per neighbour.
  private func isAntialiasedInside(
    _ window: Window,
    x: Int,
    y: Int,
    in image: UnsafeRawPointer,
    other: UnsafeRawPointer
  ) -> Bool {
    // In neighbourOffsets(_:_:)'s order: columns, then rows within each.
    let neighbours = SIMD8<UInt32>(
      lowHalf: SIMD4(window.above[0], window.middle[0], window.below[0], window.above[1]),
      highHalf: SIMD4(window.below[1], window.above[2], window.middle[2], window.below[2])
    )
    let deltas = brightness(window.middle[1]) - Self.brightness(neighbours)
    let zeroes = 0 &- unsafeBitCast(deltas .== 0, to: SIMD8<Int64>.self).wrappedSum()
    let (darkest, brightest) = Self.extremes(of: deltas)
    guard zeroes <= 2, darkest < 0, brightest > 0 else { return false }
    // Of equally dark (or bright) neighbours, the first is taken.
    return isInFlatAreaOfBoth(Self.firstLane(of: deltas .== darkest), of: x, y, image, other)
      || isInFlatAreaOfBoth(Self.firstLane(of: deltas .== brightest), of: x, y, image, other)
  }

  /// The brightness of eight pixels, as ``brightness(_:)`` computes each.
  @inline(__always)
  private static func brightness(_ pixels: SIMD8<UInt32>) -> SIMD8<Double> {
    let byte = SIMD8<UInt32>(repeating: 0xFF)
    var red = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: pixels & byte))
    var green = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: (pixels &>> 8) & byte))
    var blue = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: (pixels &>> 16) & byte))
    let alpha = pixels &>> 24
    if any(alpha .!= byte) {
      // Blended over white; an opaque pixel's opacity is exactly 1, which changes nothing.
      let opacity = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: alpha)) / 255
      red = 255 + (red - 255) * opacity
      green = 255 + (green - 255) * opacity
      blue = 255 + (blue - 255) * opacity
    }
    return red * BrightnessTables.redWeight + green * BrightnessTables.greenWeight
      + blue * BrightnessTables.blueWeight
  }

  /// The smallest and the largest lane of `values`, none of which is NaN, halving the vector:
  /// the standard library's `min()` and `max()` take one lane at a time.
  @inline(__always)
  private static func extremes(of values: SIMD8<Double>) -> (Double, Double) {
    let (a, b) = (values.lowHalf, values.highHalf)
    let low4 = a.replacing(with: b, where: b .< a)
    let high4 = a.replacing(with: b, where: b .> a)
    let low2 = low4.lowHalf.replacing(with: low4.highHalf, where: low4.highHalf .< low4.lowHalf)
    let high2 = high4.lowHalf.replacing(
      with: high4.highHalf,
      where: high4.highHalf .> high4.lowHalf
    )
    return (Swift.min(low2[0], low2[1]), Swift.max(high2[0], high2[1]))
  }

  /// The index of the first true lane of `mask`, which has one.
  @inline(__always)
  private static func firstLane(of mask: SIMDMask<SIMD8<Int64>>) -> Int {
    let bits = unsafeBitCast(mask, to: SIMD8<Int64>.self) & SIMD8(1, 2, 4, 8, 16, 32, 64, 128)
    return bits.wrappedSum().trailingZeroBitCount
  }

  /// Whether neighbour number `neighbour` of pixel (x, y), in ``neighbourOffsets(_:_:)``'s
  /// order, is in a flat area of both images; the pixel has all eight.
  @inline(__always)
  private func isInFlatAreaOfBoth(
    _ neighbour: Int,
    of x: Int,
    _ y: Int,
    _ image: UnsafeRawPointer,
    _ other: UnsafeRawPointer
  ) -> Bool {
    let (column, line) = neighbourPosition(neighbour, of: x, y)
    guard hasWindow(column, line) else {
      let offset = (line &* width &+ column) &* 4
      return isInFlatArea(offset, x: column, y: line, in: image)
        && isInFlatArea(offset, x: column, y: line, in: other)
    }
    return Self.equalNeighbours(in: window(column, line, in: image)) > 2
      && Self.equalNeighbours(in: window(column, line, in: other)) > 2
  }

  // MARK: Anywhere: one neighbour at a time

  private func isAntialiased(
    x: Int,
    y: Int,
    in image: UnsafeRawPointer,
    other: UnsafeRawPointer
  ) -> Bool {
    let centerOffset = (y &* width &+ x) &* 4
    let center = image.loadUnaligned(fromByteOffset: centerOffset, as: UInt32.self)
    let (neighbours, count) = neighbourOffsets(x, y)
    var equalCount = count < 8 ? 1 : 0
    // Most failing pixels sit in flat areas (the inside of a changed shape, a background): three
    // neighbours of the exact colour settle it before any brightness is computed. Checking every
    // neighbour for it first costs one comparison each, which noise-like areas pay without
    // benefit, but they pay for brightness anyway.
    var index = 0
    while index < count {
      if image.loadUnaligned(fromByteOffset: neighbours[index], as: UInt32.self) == center {
        equalCount &+= 1
        if equalCount > 2 { return false }
      }
      index &+= 1
    }
    let centerBrightness = brightness(center)
    var darkest = (delta: 0.0, neighbour: 0)
    var brightest = (delta: 0.0, neighbour: 0)
    // Neighbours often repeat a colour: the last one's brightness is kept.
    var lastNeighbour = center
    var lastBrightness = centerBrightness
    index = 0
    while index < count {
      let neighbour = image.loadUnaligned(fromByteOffset: neighbours[index], as: UInt32.self)
      index &+= 1
      // Exactly 0 for identical pixels, as pixelmatch has it; those were counted above.
      if neighbour == center { continue }
      if neighbour != lastNeighbour {
        lastNeighbour = neighbour
        lastBrightness = brightness(neighbour)
      }
      let delta = centerBrightness - lastBrightness
      if delta == 0 {
        equalCount &+= 1
        if equalCount > 2 { return false }
      } else if delta < darkest.delta {
        darkest = (delta, index &- 1)
      } else if delta > brightest.delta {
        brightest = (delta, index &- 1)
      }
    }
    guard darkest.delta != 0, brightest.delta != 0 else { return false }
    return isInFlatAreaOfBoth(darkest.neighbour, of: x, y, offsets: neighbours, image, other)
      || isInFlatAreaOfBoth(brightest.neighbour, of: x, y, offsets: neighbours, image, other)
  }

  /// Whether neighbour number `neighbour` (in ``neighbourOffsets(_:_:)``'s order) of pixel
  /// (`x`, `y`) is in a flat area of both images.
  @inline(__always)
  private func isInFlatAreaOfBoth(
    _ neighbour: Int,
    of x: Int,
    _ y: Int,
    offsets: InlineArray<8, Int>,
    _ image: UnsafeRawPointer,
    _ other: UnsafeRawPointer
  ) -> Bool {
    let (column, line) = neighbourPosition(neighbour, of: x, y)
    let offset = offsets[neighbour]
    return isInFlatArea(offset, x: column, y: line, in: image)
      && isInFlatArea(offset, x: column, y: line, in: other)
  }

  /// Whether at least three neighbours of the pixel at byte `offset`, column `x` and row `y`
  /// have its exact RGBA (an edge of the image counting as one).
  private func isInFlatArea(_ offset: Int, x: Int, y: Int, in image: UnsafeRawPointer) -> Bool {
    let (neighbours, count) = neighbourOffsets(x, y)
    let center = image.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    var equalCount = count < 8 ? 1 : 0
    var neighbour = 0
    while neighbour < count {
      if image.loadUnaligned(fromByteOffset: neighbours[neighbour], as: UInt32.self) == center {
        equalCount &+= 1
        if equalCount > 2 { return true }
      }
      neighbour &+= 1
    }
    return false
  }

  /// The byte offsets of the neighbours of pixel (x, y), columns first and rows within each (the
  /// order decides which of equally dark, or bright, neighbours is taken, as in pixelmatch), and
  /// how many there are: 8 inside the image, fewer on its edges.
  @inline(__always)
  private func neighbourOffsets(_ x: Int, _ y: Int) -> (InlineArray<8, Int>, Int) {
    let row = width &* 4
    let center = (y &* width &+ x) &* 4
    if x > 0 && y > 0 && x < width &- 1 && y < height &- 1 {
      return (
        [
          center &- row &- 4, center &- 4, center &+ row &- 4,
          center &- row, center &+ row,
          center &- row &+ 4, center &+ 4, center &+ row &+ 4,
        ],
        8
      )
    }
    var offsets = InlineArray<8, Int>(repeating: 0)
    var count = 0
    for column in max(x &- 1, 0)...min(x &+ 1, width &- 1) {
      for line in max(y &- 1, 0)...min(y &+ 1, height &- 1) where column != x || line != y {
        offsets[count] = (line &* width &+ column) &* 4
        count &+= 1
      }
    }
    return (offsets, count)
  }

  /// The column and row of neighbour number `neighbour` of pixel (x, y), in
  /// ``neighbourOffsets(_:_:)``'s order.
  @inline(__always)
  private func neighbourPosition(_ neighbour: Int, of x: Int, _ y: Int) -> (Int, Int) {
    if x > 0 && y > 0 && x < width &- 1 && y < height &- 1 {
      // (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1)
      let columns: InlineArray<8, Int> = [-1, -1, -1, 0, 0, 1, 1, 1]
      let lines: InlineArray<8, Int> = [-1, 0, 1, -1, 1, -1, 0, 1]
      return (x &+ columns[neighbour], y &+ lines[neighbour])
    }
    var count = 0
    for column in max(x &- 1, 0)...min(x &+ 1, width &- 1) {
      for line in max(y &- 1, 0)...min(y &+ 1, height &- 1) where column != x || line != y {
        if count == neighbour { return (column, line) }
        count &+= 1
      }
    }
    preconditionFailure("Pixel (\(x), \(y)) has no neighbour \(neighbour)")
  }

  /// YIQ's Y of an RGBA pixel blended over white, in pixelmatch's order of operations: for an
  /// opaque pixel, the same products from a table, added in the same order.
  @inline(__always)
  private func brightness(_ pixel: UInt32) -> Double {
    let bytes = pixel.littleEndian
    let red = Int(bytes & 0xFF)
    let green = Int((bytes >> 8) & 0xFF)
    let blue = Int((bytes >> 16) & 0xFF)
    let alpha = bytes >> 24
    if alpha == 255 {
      return luma[red] + luma[256 &+ green] + luma[512 &+ blue]
    }
    let opacity = Double(alpha) / 255
    let r = 255 + (Double(red) - 255) * opacity
    let g = 255 + (Double(green) - 255) * opacity
    let b = 255 + (Double(blue) - 255) * opacity
    return r * BrightnessTables.redWeight + g * BrightnessTables.greenWeight
      + b * BrightnessTables.blueWeight
  }
}

/// The column and row of pixel indices visited in ascending order, as a pass visits them: a
/// division only when the row changes, not for every pixel.
struct PixelCursor {
  let width: Int
  private var row = 0
  private var rowStart = 0
  private var nextRowStart = 0

  init(width: Int) {
    self.width = max(width, 1)
  }

  /// The column and row of pixel `index`.
  @inline(__always)
  mutating func position(of index: Int) -> (x: Int, y: Int) {
    if index >= nextRowStart || index < rowStart {
      row = index / width
      rowStart = row &* width
      nextRowStart = rowStart &+ width
    }
    return (index &- rowStart, row)
  }
}

/// Each channel value times its YIQ luma weight.
enum BrightnessTables {
  static let redWeight = 0.29889531
  static let greenWeight = 0.58662247
  static let blueWeight = 0.11448223

  /// 768 `Double`s: red values' products, then green's, then blue's. Built once, never freed,
  /// never written after: safe to read from any thread.
  nonisolated(unsafe) static let luma: UnsafePointer<Double> = {
    let table = UnsafeMutablePointer<Double>.allocate(capacity: 768)
    for value in 0..<256 {
      table[value] = Double(value) * redWeight
      table[256 + value] = Double(value) * greenWeight
      table[512 + value] = Double(value) * blueWeight
    }
    return UnsafePointer(table)
  }()
}
