// The kernel's memory and tables, as raw pointers: `BlockScratch` (the working arrays of a
// block, owned by a `~Copyable` value that frees them in `deinit`), `LinearColorPairBatch` (six
// of those arrays), `DeltaEKernel` (vectorised loops over them) and `LabLookup` (conversion
// tables built once and never freed). Every index is below a block's capacity or a table's size.

/// A batch of colour pairs in linear light, already composited (premultiplied by alpha and, over
/// white, lifted by 1 − alpha), stored as one array per channel so that the kernel's loop
/// vectorises.
struct LinearColorPairBatch {
  let referenceRed: UnsafeMutablePointer<Float>
  let referenceGreen: UnsafeMutablePointer<Float>
  let referenceBlue: UnsafeMutablePointer<Float>
  let newRed: UnsafeMutablePointer<Float>
  let newGreen: UnsafeMutablePointer<Float>
  let newBlue: UnsafeMutablePointer<Float>

  /// Carves six arrays out of `storage`, which holds `6 × stride` values, `stride` apart.
  init(storage: UnsafeMutablePointer<Float>, stride: Int) {
    referenceRed = storage
    referenceGreen = storage + stride
    referenceBlue = storage + 2 * stride
    newRed = storage + 3 * stride
    newGreen = storage + 4 * stride
    newBlue = storage + 5 * stride
  }

  /// Stores pair `index`: the reference's red, green and blue, then the new colour's.
  @inline(__always)
  func store(_ index: Int, reference: (Float, Float, Float), new: (Float, Float, Float)) {
    referenceRed[index] = reference.0
    referenceGreen[index] = reference.1
    referenceBlue[index] = reference.2
    newRed[index] = new.0
    newGreen[index] = new.1
    newBlue[index] = new.2
  }
}

/// ΔE\*94 of many colour pairs at once, in `Float`, with the cube root computed rather than
/// looked up: a branch-free loop over plain arrays that the optimiser turns into SIMD code and
/// that has no generic call left in it for a debug build.
///
/// Its results are estimates, within ``errorBound`` of the `Double` conversion of
/// ``LabLookup``; the pixel loop trusts an estimate only when that bound cannot change whether a
/// pixel fails or which ΔE is the largest, and converts the pixel again with ``LabLookup``
/// otherwise, so what a comparison reports does not depend on this kernel.
struct DeltaEKernel {
  /// How far an estimate may be from the `Double` conversion, in ΔE\*94. The `Float` rounding
  /// error is about 10⁻⁴ at worst (a test checks it stays below 10⁻³); the margin is ten times
  /// that, and costs only the rare pixels this close to the tolerance or the running maximum.
  static let errorBound = 0.01

  /// Stored, so that a block reads no global (each would be a lazy-initialisation check).
  let matrix = NormalizedXYZMatrix.sRGB

  /// Writes the estimated ΔE\*94 of pair `i` of `pairs` to `output[i]`, for `i` in `0..<count`.
  ///
  /// Three loops, each with no call inside so that a debug build runs it inline too: to CIE XYZ,
  /// f of every component, then CIELAB and CIE94.
  ///
  /// - Parameter workspace: Room for six arrays of `stride` ≥ `count` values: the reference's
  ///   X, Y and Z, then the new colour's.
  /// - Complexity: O(*n*), six cube roots and three square roots a pair.
  func deltaEs(
    of pairs: LinearColorPairBatch,
    count: Int,
    workspace: UnsafeMutablePointer<Float>,
    stride: Int,
    into output: UnsafeMutablePointer<Float>
  ) {
    relativeXYZ(of: pairs, count: count, workspace: workspace, stride: stride)
    var column = 0
    while column < 6 {
      Self.compand(workspace + column * stride, count: count)
      column &+= 1
    }
    Self.cie94(workspace: workspace, stride: stride, count: count, into: output)
  }

  /// X/Xn, Y/Yn and Z/Zn of both colours of each pair, into the workspace's six arrays.
  private func relativeXYZ(
    of pairs: LinearColorPairBatch,
    count: Int,
    workspace: UnsafeMutablePointer<Float>,
    stride: Int
  ) {
    // Locals, so that the loop reads no property through `self`; `Float` keeps it SIMD.
    let xr = Float(matrix.xr)
    let xg = Float(matrix.xg)
    let xb = Float(matrix.xb)
    let yr = Float(matrix.yr)
    let yg = Float(matrix.yg)
    let yb = Float(matrix.yb)
    let zr = Float(matrix.zr)
    let zg = Float(matrix.zg)
    let zb = Float(matrix.zb)
    let (x1, y1, z1) = (workspace, workspace + stride, workspace + 2 * stride)
    let (x2, y2, z2) = (workspace + 3 * stride, workspace + 4 * stride, workspace + 5 * stride)
    var index = 0
    while index < count {
      let r1 = pairs.referenceRed[index]
      let g1 = pairs.referenceGreen[index]
      let b1 = pairs.referenceBlue[index]
      let r2 = pairs.newRed[index]
      let g2 = pairs.newGreen[index]
      let b2 = pairs.newBlue[index]
      x1[index] = xr * r1 + xg * g1 + xb * b1
      y1[index] = yr * r1 + yg * g1 + yb * b1
      z1[index] = zr * r1 + zg * g1 + zb * b1
      x2[index] = xr * r2 + xg * g2 + xb * b2
      y2[index] = yr * r2 + yg * g2 + yb * b2
      z2[index] = zr * r2 + zg * g2 + zb * b2
      index &+= 1
    }
  }

  /// Replaces each of `count` values t by CIELAB's f(t): a cube root above (6/29)³, a straight
  /// segment below, with neither a branch nor a division.
  private static func compand(_ values: UnsafeMutablePointer<Float>, count: Int) {
    let epsilon: Float = 216.0 / 24_389
    var index = 0
    while index < count {
      let t = values[index]
      // Clamped so the cube root never sees zero or a denormal, whichever side is kept.
      let above = t > epsilon ? t : epsilon
      let third = above * (1.0 / 3)
      // t^(−1/3): a first guess from the exponent divided by three (about 4% off), then two
      // Newton steps, y ← y (4 − t y³) / 3, each squaring the error.
      var inverse = Float(bitPattern: 0x54a2_1d2a &- above.bitPattern / 3)
      var squared = inverse * inverse
      inverse = inverse * (4.0 / 3) - third * (squared * squared)
      squared = inverse * inverse
      inverse = inverse * (4.0 / 3) - third * (squared * squared)
      // t^(1/3) = t y², within 2·10⁻⁵; one Newton step on r³ = t, with 1 / (3 r²) ≈ y² / 3,
      // brings it to Float's precision.
      squared = inverse * inverse
      let root = above * squared
      let refined = root - (root * root * root - above) * (squared * (1.0 / 3))
      let linear = t * (24_389.0 / 27 / 116) + 16.0 / 116
      values[index] = t > epsilon ? refined : linear
      index &+= 1
    }
  }

  /// CIE94 as in `cie94Difference`, on L = 116 fy − 16, a = 500 (fx − fy), b = 200 (fy − fz),
  /// from the companded workspace.
  private static func cie94(
    workspace: UnsafeMutablePointer<Float>,
    stride: Int,
    count: Int,
    into output: UnsafeMutablePointer<Float>
  ) {
    let (x1, y1, z1) = (workspace, workspace + stride, workspace + 2 * stride)
    let (x2, y2, z2) = (workspace + 3 * stride, workspace + 4 * stride, workspace + 5 * stride)
    var index = 0
    while index < count {
      let (fx1, fy1, fz1) = (x1[index], y1[index], z1[index])
      let (fx2, fy2, fz2) = (x2[index], y2[index], z2[index])
      let deltaL = 116 * (fy1 - fy2)
      let a1 = 500 * (fx1 - fy1)
      let bb1 = 200 * (fy1 - fz1)
      let a2 = 500 * (fx2 - fy2)
      let bb2 = 200 * (fy2 - fz2)
      let chroma1 = (a1 * a1 + bb1 * bb1).squareRoot()
      let chroma2 = (a2 * a2 + bb2 * bb2).squareRoot()
      let deltaC = chroma1 - chroma2
      let deltaA = a1 - a2
      let deltaB = bb1 - bb2
      let hueSquared = deltaA * deltaA + deltaB * deltaB - deltaC * deltaC
      let deltaHSquared: Float = hueSquared > 0 ? hueSquared : 0
      let scaleC = 1 + 0.045 * chroma1
      let scaleH = 1 + 0.015 * chroma1
      let termC = deltaC / scaleC
      output[index] =
        (deltaL * deltaL + termC * termC + deltaHSquared / (scaleH * scaleH)).squareRoot()
      index &+= 1
    }
  }
}

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

/// CIELAB conversion through lookup tables, for the comparison pass: per pixel, table reads,
/// multiplications and one interpolation per component.
///
/// The tables are built once, from ``LabConversion``'s functions, and never freed: like any
/// static table they live as long as the process, so that the pass reads them through plain
/// pointers, with no closure to borrow an array's storage.
struct LabLookup: @unchecked Sendable {  // Unchecked: the tables are never written after `init`.
  /// The one instance.
  static let shared = LabLookup()
  /// Intervals of the f(t) table; its error is below 2·10⁻⁴ in ΔE.
  static let curveSteps = 16_384

  /// Linear-light value of each 8-bit sRGB code.
  let linear: UnsafePointer<Double>
  /// The same, as `Float`, for the estimates of ``DeltaEKernel``.
  let linearFloat: UnsafePointer<Float>
  /// CIELAB's f(t) sampled at t = i / ``curveSteps``, for i in 0...curveSteps.
  let curve: UnsafePointer<Double>
  // Stored rather than read from globals, so that the hot loop has no lazy-initialisation check.
  let matrix = NormalizedXYZMatrix.sRGB
  let steps = Double(LabLookup.curveSteps)
  let lastInterval = LabLookup.curveSteps - 1

  private init() {
    linear = Self.table(count: 256) { LabConversion.linearLight(UInt8($0)) }
    linearFloat = Self.table(count: 256) { Float(LabConversion.linearLight(UInt8($0))) }
    curve = Self.table(count: Self.curveSteps + 1) { step in
      LabConversion.exactLabCurve(Double(step) / Double(Self.curveSteps))
    }
  }

  /// A table of `count` values that is never freed.
  private static func table<Value>(count: Int, _ value: (Int) -> Value) -> UnsafePointer<Value> {
    let table = UnsafeMutablePointer<Value>.allocate(capacity: count)
    for index in 0..<count { (table + index).initialize(to: value(index)) }
    return UnsafePointer(table)
  }

  /// ΔE\*94 between two RGBA8 pixels, the larger of the two composited over black and over
  /// white. Opaque pairs look the same on both, so they are converted once.
  @inline(__always)
  func largestDeltaE(reference: UnsafePointer<UInt8>, new: UnsafePointer<UInt8>) -> Double {
    if reference[3] == 255 && new[3] == 255 {
      return cie94Difference(
        reference: lab(reference, alpha: 1, background: 0),
        sample: lab(new, alpha: 1, background: 0)
      )
    }
    let referenceAlpha = Double(reference[3]) * (1.0 / 255)
    let newAlpha = Double(new[3]) * (1.0 / 255)
    let overBlack = cie94Difference(
      reference: lab(reference, alpha: referenceAlpha, background: 0),
      sample: lab(new, alpha: newAlpha, background: 0)
    )
    let overWhite = cie94Difference(
      reference: lab(reference, alpha: referenceAlpha, background: 1 - referenceAlpha),
      sample: lab(new, alpha: newAlpha, background: 1 - newAlpha)
    )
    return max(overBlack, overWhite)
  }

  /// The CIELAB colour of a pixel whose linear colour is scaled by `alpha` and lifted by
  /// `background` (0 over black, 1 − alpha over white).
  @inline(__always)
  func lab(_ pixel: UnsafePointer<UInt8>, alpha: Double, background: Double) -> LabColor {
    matrix.lab(
      red: linear[Int(pixel[0])] * alpha + background,
      green: linear[Int(pixel[1])] * alpha + background,
      blue: linear[Int(pixel[2])] * alpha + background,
      curve: companded
    )
  }

  /// f(t) for t in 0...1 (clamped), by linear interpolation in the table.
  @inline(__always)
  func companded(_ t: Double) -> Double {
    let position = min(max(t, 0), 1) * steps
    let lower = min(Int(position), lastInterval)
    let fraction = position - Double(lower)
    let start = curve[lower]
    return start + (curve[lower + 1] - start) * fraction
  }
}
