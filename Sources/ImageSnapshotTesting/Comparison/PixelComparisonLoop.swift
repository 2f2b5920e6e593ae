#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import Dispatch

// The unsafe pixel loops: raw pointers, lookup tables, no allocation per pixel, and `while`
// loops rather than `for`-`in`, which stay fast in unoptimised (debug) builds too.

/// What one pass over two equally sized pixel buffers found.
struct PixelComparisonTally {
  var differingPixelCount = 0
  var failingPixelCount = 0
  var maximumDeltaE = 0.0
}

/// How a comparison may use threads. Every choice gives the same result, to the bit.
enum PixelComparisonThreading: Sendable {
  /// Large images (at least ``PixelComparisonLoop/parallelPixelCount``) are split across the
  /// available cores; smaller ones are compared on the calling thread.
  case automatic
  /// Always on the calling thread.
  case singleThreaded
  /// In this many ranges of whole blocks, whatever the size (for tests).
  case ranges(Int)
}

enum PixelComparisonLoop {
  /// The size from which ``PixelComparisonThreading/automatic`` uses every core: 1024 blocks.
  /// At this size the worst case (every pixel converted) takes about 50 ms on one core and even
  /// a plain scan of the differing bytes about a millisecond, against some tens of microseconds
  /// to wake the other threads; smaller images, the usual snapshot, never pay for threads.
  static let parallelPixelCount = 1 << 20
  /// The smallest range a thread takes, in blocks (about 7 ms of work at worst).
  static let minimumBlocksPerRange = 128
  /// Whether two byte buffers are identical, with `memcmp`.
  static func bytesAreEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.withUnsafeBufferPointer { left in
      rhs.withUnsafeBufferPointer { right in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return left.count == right.count
        }
        return memcmp(leftBase, rightBase, left.count) == 0
      }
    }
  }

  /// Compares two RGBA8 buffers of the same size pixel by pixel.
  ///
  /// Only pixels whose bytes differ are converted to CIELAB. A differing pixel fails when its
  /// ΔE\*94 exceeds `tolerance`, or always when `tolerance` is `nil` (byte-exact comparison).
  ///
  /// Differing pixels go through in blocks: their colours are gathered into per-channel arrays,
  /// ``DeltaEKernel`` estimates all their ΔE\*94 at once in vectorised `Float` code, and only a
  /// pixel whose estimate is within ``DeltaEKernel/errorBound`` of the tolerance or of the
  /// largest ΔE so far is converted again, exactly, by ``LabLookup``. The counts and the largest
  /// ΔE are therefore those of ``LabLookup`` alone.
  ///
  /// Large images are split into ranges of whole blocks, several per core so that a range with
  /// more differing pixels does not hold up the rest. Each range has its own scratch memory,
  /// counters and exact largest ΔE, and writes only its own part of `deltaEs`; the counts add
  /// and the largest ΔE is the largest of the ranges', so the result does not depend on the split.
  ///
  /// - Parameter deltaEs: When given, receives each pixel's ΔE\*94 (0 for identical pixels) and is
  ///   `pixelCount` long; otherwise nothing is stored. The exact value is stored where it decides
  ///   whether the pixel fails, the estimate elsewhere (where it decides the same), so what is
  ///   stored depends on the pixel alone, not on the running maximum or the split.
  /// - Complexity: O(*n*) in the number of pixels, divided among the cores for large images.
  static func compare(
    reference: [UInt8],
    new: [UInt8],
    tolerance: Double?,
    deltaEs: UnsafeMutableBufferPointer<Float>? = nil,
    threading: PixelComparisonThreading = .automatic
  ) -> PixelComparisonTally {
    let pixelCount = min(reference.count, new.count) / 4
    var tally = PixelComparisonTally()
    let rangeCount = rangeCount(pixelCount: pixelCount, threading: threading)
    reference.withUnsafeBytes { referenceBuffer in
      new.withUnsafeBytes { newBuffer in
        guard let referenceBase = referenceBuffer.baseAddress, let newBase = newBuffer.baseAddress
        else { return }
        let pass = ComparisonPass(
          reference: referenceBase,
          new: newBase,
          pixelCount: pixelCount,
          tolerance: tolerance,
          converter: LabLookup.shared,
          linearFloat: LabLookup.shared.linearFloat,
          deltaEs: deltaEs?.baseAddress
        )
        tally = rangeCount > 1 ? pass.runInParallel(rangeCount: rangeCount) : pass.run()
      }
    }
    return tally
  }

  /// How many ranges to split `pixelCount` pixels into: 1 on one core or below
  /// ``parallelPixelCount``, otherwise four per core, each at least ``minimumBlocksPerRange``.
  static func rangeCount(pixelCount: Int, threading: PixelComparisonThreading) -> Int {
    let blockCount = (pixelCount + BlockScratch.capacity - 1) / BlockScratch.capacity
    switch threading {
    case .singleThreaded:
      return 1
    case .ranges(let count):
      return max(1, min(count, blockCount))
    case .automatic:
      let cores = activeProcessorCount
      guard cores > 1, pixelCount >= parallelPixelCount else { return 1 }
      return max(1, min(cores * 4, blockCount / minimumBlocksPerRange))
    }
  }

  /// The processors online, read once.
  static let activeProcessorCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Where the threads of a parallel pass put their tallies, one slot each, written by that
/// thread alone and read after all have finished.
private struct TallySlots: @unchecked Sendable {
  let base: UnsafeMutablePointer<PixelComparisonTally>
}

/// One comparison's inputs, as raw pointers that stay valid until it returns.
///
/// `@unchecked Sendable` because the threads of ``runInParallel(rangeCount:)`` share it: they only
/// read the images and tables, and each writes a disjoint range of `deltaEs` and its own tally.
private struct ComparisonPass: @unchecked Sendable {
  let reference: UnsafeRawPointer
  let new: UnsafeRawPointer
  let pixelCount: Int
  let tolerance: Double?
  let converter: LabLookup
  let linearFloat: UnsafePointer<Float>
  let deltaEs: UnsafeMutablePointer<Float>?

  /// The whole image on the calling thread.
  func run() -> PixelComparisonTally {
    let scratch = BlockScratch()
    defer { scratch.deallocate() }
    return loop(from: 0, to: pixelCount, scratch: scratch)
  }

  /// The image in `rangeCount` ranges of whole blocks, on all cores, merged.
  func runInParallel(rangeCount: Int) -> PixelComparisonTally {
    let blockSize = BlockScratch.capacity
    let blockCount = (pixelCount + blockSize - 1) / blockSize
    // Whole blocks, so that each block holds the same pixels as on one thread.
    let rangeBlocks = (blockCount + rangeCount - 1) / rangeCount
    let tallies = UnsafeMutablePointer<PixelComparisonTally>.allocate(capacity: rangeCount)
    tallies.initialize(repeating: PixelComparisonTally(), count: rangeCount)
    defer { tallies.deallocate() }
    let slots = TallySlots(base: tallies)
    DispatchQueue.concurrentPerform(iterations: rangeCount) { range in
      let start = min(range * rangeBlocks * blockSize, pixelCount)
      let end = min(start + rangeBlocks * blockSize, pixelCount)
      guard start < end else { return }
      let scratch = BlockScratch()
      defer { scratch.deallocate() }
      slots.base[range] = loop(from: start, to: end, scratch: scratch)
    }
    var merged = PixelComparisonTally()
    var range = 0
    while range < rangeCount {
      let tally = tallies[range]
      merged.differingPixelCount += tally.differingPixelCount
      merged.failingPixelCount += tally.failingPixelCount
      merged.maximumDeltaE = max(merged.maximumDeltaE, tally.maximumDeltaE)
      range += 1
    }
    return merged
  }

  /// The loop itself over pixels `start..<end`, on raw pointers with local counters (not
  /// captured by a closure, so they stay in registers).
  private func loop(from start: Int, to end: Int, scratch: BlockScratch) -> PixelComparisonTally {
    let referenceBase = reference
    let newBase = new
    let pixelCount = end
    let converter = converter
    let linearFloat = linearFloat
    let deltaEBase = deltaEs
    let exact = tolerance == nil
    let limit = tolerance ?? 0
    let margin = DeltaEKernel.errorBound
    let kernel = DeltaEKernel()
    let blockSize = BlockScratch.capacity
    let overBlack = scratch.overBlack
    let overWhite = scratch.overWhite
    let estimates = scratch.estimates
    let whiteEstimates = scratch.whiteEstimates
    let pixelIndices = scratch.pixelIndices
    let pixelSlots = scratch.pixelSlots
    let whiteSlots = scratch.whiteSlots
    let workspace = scratch.workspace
    let stride = BlockScratch.stride
    var differing = 0
    var failing = 0
    var maximumDeltaE = 0.0
    // The pair that gave the maximum: it recurs in flat images, and needs no second conversion.
    // Equal pixels never get this far, so an equal pair is a safe initial key.
    var maximumReferencePixel: UInt32 = 0
    var maximumNewPixel: UInt32 = 0
    var blockStart = start
    while blockStart < pixelCount {
      let blockEnd = pixelCount - blockStart > blockSize ? blockStart &+ blockSize : pixelCount

      // 1. Gather the differing pixels' colours in linear light. Rendered images repeat colours
      // in runs: a pair equal to the previous one shares its slot (its ΔE) instead of a new one.
      var queued = 0
      var slotCount = 0
      var whiteCount = 0
      var lastReferencePixel: UInt32 = 0
      var lastNewPixel: UInt32 = 0
      var index = blockStart
      while index < blockEnd {
        let offset = index &* 4
        let referencePixel = referenceBase.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        let newPixel = newBase.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        if referencePixel != newPixel {
          if referencePixel != lastReferencePixel || newPixel != lastNewPixel {
            let referenceBytes = (referenceBase + offset).assumingMemoryBound(to: UInt8.self)
            let newBytes = (newBase + offset).assumingMemoryBound(to: UInt8.self)
            let referenceAlpha = Float(referenceBytes[3]) * (1.0 / 255)
            let newAlpha = Float(newBytes[3]) * (1.0 / 255)
            let r1 = linearFloat[Int(referenceBytes[0])] * referenceAlpha
            let g1 = linearFloat[Int(referenceBytes[1])] * referenceAlpha
            let b1 = linearFloat[Int(referenceBytes[2])] * referenceAlpha
            let r2 = linearFloat[Int(newBytes[0])] * newAlpha
            let g2 = linearFloat[Int(newBytes[1])] * newAlpha
            let b2 = linearFloat[Int(newBytes[2])] * newAlpha
            overBlack.referenceRed[slotCount] = r1
            overBlack.referenceGreen[slotCount] = g1
            overBlack.referenceBlue[slotCount] = b1
            overBlack.newRed[slotCount] = r2
            overBlack.newGreen[slotCount] = g2
            overBlack.newBlue[slotCount] = b2
            // Opaque pairs look the same over white; only translucent ones are queued again.
            if referenceBytes[3] != 255 || newBytes[3] != 255 {
              let referenceLift = 1 - referenceAlpha
              let newLift = 1 - newAlpha
              overWhite.referenceRed[whiteCount] = r1 + referenceLift
              overWhite.referenceGreen[whiteCount] = g1 + referenceLift
              overWhite.referenceBlue[whiteCount] = b1 + referenceLift
              overWhite.newRed[whiteCount] = r2 + newLift
              overWhite.newGreen[whiteCount] = g2 + newLift
              overWhite.newBlue[whiteCount] = b2 + newLift
              whiteSlots[whiteCount] = slotCount
              whiteCount &+= 1
            }
            slotCount &+= 1
            lastReferencePixel = referencePixel
            lastNewPixel = newPixel
          }
          pixelIndices[queued] = index
          pixelSlots[queued] = slotCount &- 1
          queued &+= 1
        } else if let deltaEBase {
          deltaEBase[index] = 0
        }
        index &+= 1
      }

      // 2. Estimate every slot's ΔE at once, the larger of over black and over white.
      kernel.deltaEs(
        of: overBlack,
        count: slotCount,
        workspace: workspace,
        stride: stride,
        into: estimates
      )
      kernel.deltaEs(
        of: overWhite,
        count: whiteCount,
        workspace: workspace,
        stride: stride,
        into: whiteEstimates
      )
      var white = 0
      while white < whiteCount {
        let slot = whiteSlots[white]
        if whiteEstimates[white] > estimates[slot] { estimates[slot] = whiteEstimates[white] }
        white &+= 1
      }

      // 3. Count, converting exactly where the estimate's error could matter.
      differing &+= queued
      var lastSlot = -1
      var lastDeltaE = 0.0
      var lastIsExact = false
      var item = 0
      while item < queued {
        let slot = pixelSlots[item]
        let pixelIndex = pixelIndices[item]
        let estimate = estimates[slot]
        let nearLimit =
          !exact && Double(estimate) - limit <= margin && limit - Double(estimate) <= margin
        var deltaE: Double
        if slot == lastSlot && lastIsExact {
          deltaE = lastDeltaE
        } else {
          deltaE = Double(estimate)
          let mayBeMaximum = deltaE + margin > maximumDeltaE
          var isExact = false
          if nearLimit || mayBeMaximum {
            let offset = pixelIndex &* 4
            let referencePixel = referenceBase.loadUnaligned(
              fromByteOffset: offset,
              as: UInt32.self
            )
            let newPixel = newBase.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            if referencePixel == maximumReferencePixel && newPixel == maximumNewPixel {
              deltaE = maximumDeltaE
            } else {
              deltaE = converter.largestDeltaE(
                reference: (referenceBase + offset).assumingMemoryBound(to: UInt8.self),
                new: (newBase + offset).assumingMemoryBound(to: UInt8.self)
              )
              if deltaE > maximumDeltaE {
                maximumDeltaE = deltaE
                maximumReferencePixel = referencePixel
                maximumNewPixel = newPixel
              }
            }
            isExact = true
          }
          lastSlot = slot
          lastDeltaE = deltaE
          lastIsExact = isExact
        }
        if exact || deltaE > limit { failing &+= 1 }
        // The exact value only where it decides: what is stored must not depend on the running
        // maximum, which differs between one thread and several.
        if let deltaEBase { deltaEBase[pixelIndex] = nearLimit ? Float(deltaE) : estimate }
        item &+= 1
      }
      blockStart = blockEnd
    }
    return PixelComparisonTally(
      differingPixelCount: differing,
      failingPixelCount: failing,
      maximumDeltaE: maximumDeltaE
    )
  }
}

/// The per-block working memory of the pixel loop, allocated once per comparison.
struct BlockScratch {
  /// Pixels a block holds: its arrays (about 100 KiB) stay in the cache.
  static let capacity = 1024
  /// Arrays whose size is a multiple of 4 KiB would all start in the same cache set, and the
  /// twenty written together would evict one another: each is padded by a cache line.
  static let stride = capacity + 16

  private let floats: UnsafeMutablePointer<Float>
  private let integers: UnsafeMutablePointer<Int>
  /// Each slot's colour pair composited over black (for opaque pairs, the only one).
  let overBlack: LinearColorPairBatch
  /// The translucent slots' colour pairs composited over white.
  let overWhite: LinearColorPairBatch
  /// The estimated ΔE of each slot, then the larger of it and its estimate over white.
  let estimates: UnsafeMutablePointer<Float>
  let whiteEstimates: UnsafeMutablePointer<Float>
  /// Six arrays for the kernel's intermediate values.
  let workspace: UnsafeMutablePointer<Float>
  /// For each differing pixel of the block: its index in the image and its slot.
  let pixelIndices: UnsafeMutablePointer<Int>
  let pixelSlots: UnsafeMutablePointer<Int>
  /// For each pair over white: the slot it belongs to.
  let whiteSlots: UnsafeMutablePointer<Int>

  init() {
    let stride = Self.stride
    floats = .allocate(capacity: 20 * stride)
    integers = .allocate(capacity: 3 * stride)
    overBlack = LinearColorPairBatch(storage: floats, stride: stride)
    overWhite = LinearColorPairBatch(storage: floats + 6 * stride, stride: stride)
    estimates = floats + 12 * stride
    whiteEstimates = floats + 13 * stride
    workspace = floats + 14 * stride
    pixelIndices = integers
    pixelSlots = integers + stride
    whiteSlots = integers + 2 * stride
  }

  func deallocate() {
    floats.deallocate()
    integers.deallocate()
  }
}
