import Dispatch

// The unsafe pixel loops: raw pointers, lookup tables, no allocation per pixel, and `while`
// loops rather than `for`-`in`, which stay fast in unoptimised (debug) builds too. Each step
// copies what it reads in its loop into locals, which stay in registers.

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
