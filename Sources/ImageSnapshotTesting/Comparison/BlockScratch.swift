/// The working memory of one comparison range: per block of pixels, the differing pairs'
/// colours, their estimated ΔE and where each pixel's estimate is.
///
/// It owns its memory: allocated in `init`, freed in `deinit`. `~Copyable`, so that no copy can
/// free it twice and no caller has to remember to free it.
struct BlockScratch: ~Copyable {
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
    // Two allocations rather than ten: every array is written before it is read, so none needs
    // initialising.
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

  deinit {
    floats.deallocate()
    integers.deallocate()
  }
}
