#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a comparison may use threads. Every choice gives the same result, to the bit.
enum PixelComparisonThreading: Sendable {
  /// Large images (at least ``parallelPixelCount``) are split across the available cores;
  /// smaller ones are compared on the calling thread.
  case automatic
  /// Always on the calling thread.
  case singleThreaded
  /// In this many ranges of whole blocks, whatever the size (for tests).
  case ranges(Int)

  /// The size from which ``automatic`` uses every core: 1024 blocks. At this size the worst case
  /// (every pixel converted) takes about 50 ms on one core and even a plain scan of the differing
  /// bytes about a millisecond, against some tens of microseconds to wake the other threads;
  /// smaller images, the usual snapshot, never pay for threads.
  static let parallelPixelCount = 1 << 20
  /// The smallest range a thread takes, in blocks (about 7 ms of work at worst).
  static let minimumBlocksPerRange = 128
  /// The processors online, read once.
  static let activeProcessorCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

  /// How many ranges to split `pixelCount` pixels into: 1 on one core or below
  /// ``parallelPixelCount``, otherwise four per core, each at least ``minimumBlocksPerRange``;
  /// several per core, so that a range with more differing pixels does not hold up the rest.
  func rangeCount(pixelCount: Int) -> Int {
    let blockCount = (pixelCount + BlockScratch.capacity - 1) / BlockScratch.capacity
    switch self {
    case .singleThreaded:
      return 1
    case .ranges(let count):
      return max(1, min(count, blockCount))
    case .automatic:
      let cores = Self.activeProcessorCount
      guard cores > 1, pixelCount >= Self.parallelPixelCount else { return 1 }
      return max(1, min(cores * 4, blockCount / Self.minimumBlocksPerRange))
    }
  }

  /// `pixelCount` pixels cut into `rangeCount` ranges of whole blocks, so that each block holds
  /// the same pixels as on one thread; the last ranges may be shorter, or empty.
  static func pixelRanges(pixelCount: Int, rangeCount: Int) -> [Range<Int>] {
    let blockSize = BlockScratch.capacity
    let blockCount = (pixelCount + blockSize - 1) / blockSize
    let rangePixels = (blockCount + rangeCount - 1) / rangeCount * blockSize
    return (0..<rangeCount).map { range in
      let start = min(range * rangePixels, pixelCount)
      return start..<min(start + rangePixels, pixelCount)
    }
  }
}
