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
