#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The unsafe pixel loops: raw pointers, lookup tables, no allocation per pixel, and `while`
// loops rather than `for`-`in`, which stay fast in unoptimised (debug) builds too.

/// What one pass over two equally sized pixel buffers found.
struct PixelComparisonTally {
  var differingPixelCount = 0
  var failingPixelCount = 0
  var maximumDeltaE = 0.0
}

enum PixelComparisonLoop {
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
  /// - Parameter deltaEs: When given, receives each pixel's ΔE\*94 (0 for identical pixels) and is
  ///   `pixelCount` long; otherwise nothing is stored.
  /// - Complexity: O(*n*) in the number of pixels.
  static func compare(
    reference: [UInt8],
    new: [UInt8],
    tolerance: Double?,
    deltaEs: UnsafeMutableBufferPointer<Float>? = nil
  ) -> PixelComparisonTally {
    let tables = LabConversion.shared
    let pixelCount = min(reference.count, new.count) / 4
    var tally = PixelComparisonTally()
    reference.withUnsafeBytes { referenceBuffer in
      new.withUnsafeBytes { newBuffer in
        tables.linearFromSRGB.withUnsafeBufferPointer { linearBuffer in
          tables.labCurve.withUnsafeBufferPointer { curveBuffer in
            guard
              let referenceBase = referenceBuffer.baseAddress,
              let newBase = newBuffer.baseAddress,
              let linear = linearBuffer.baseAddress,
              let curve = curveBuffer.baseAddress
            else { return }
            tally = loop(
              reference: referenceBase,
              new: newBase,
              pixelCount: pixelCount,
              tolerance: tolerance,
              converter: LabLookup(linear: linear, curve: curve),
              deltaEs: deltaEs?.baseAddress
            )
          }
        }
      }
    }
    return tally
  }

  /// The loop itself, on raw pointers with local counters (not captured by a closure, so they
  /// stay in registers).
  private static func loop(
    reference referenceBase: UnsafeRawPointer,
    new newBase: UnsafeRawPointer,
    pixelCount: Int,
    tolerance: Double?,
    converter: LabLookup,
    deltaEs deltaEBase: UnsafeMutablePointer<Float>?
  ) -> PixelComparisonTally {
    let exact = tolerance == nil
    let limit = tolerance ?? 0
    var differing = 0
    var failing = 0
    var maximumDeltaE = 0.0
    // Rendered images repeat colours in runs: the last differing pair's ΔE is reused. Equal
    // pixels never reach the cache, so an equal pair is a safe initial key.
    var lastReferencePixel: UInt32 = 0
    var lastNewPixel: UInt32 = 0
    var lastDeltaE = 0.0
    var index = 0
    while index < pixelCount {
      let offset = index &* 4
      let referencePixel = referenceBase.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      let newPixel = newBase.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      if referencePixel != newPixel {
        let deltaE: Double
        if referencePixel == lastReferencePixel && newPixel == lastNewPixel {
          deltaE = lastDeltaE
        } else {
          deltaE = converter.largestDeltaE(
            reference: (referenceBase + offset).assumingMemoryBound(to: UInt8.self),
            new: (newBase + offset).assumingMemoryBound(to: UInt8.self)
          )
          lastReferencePixel = referencePixel
          lastNewPixel = newPixel
          lastDeltaE = deltaE
        }
        differing &+= 1
        if exact || deltaE > limit { failing &+= 1 }
        if deltaE > maximumDeltaE { maximumDeltaE = deltaE }
        if let deltaEBase { deltaEBase[index] = Float(deltaE) }
      } else if let deltaEBase {
        deltaEBase[index] = 0
      }
      index &+= 1
    }
    return PixelComparisonTally(
      differingPixelCount: differing,
      failingPixelCount: failing,
      maximumDeltaE: maximumDeltaE
    )
  }
}

/// CIELAB conversion through the tables of ``LabConversion``, on raw pointers.
///
/// The matrix is copied into stored properties, already divided by the white point, so the hot
/// loop reads no global (each would be a lazy-initialisation check).
struct LabLookup {
  let linear: UnsafePointer<Double>
  let curve: UnsafePointer<Double>
  let xr = LabConversion.xFromRGB.0 / LabConversion.whiteX
  let xg = LabConversion.xFromRGB.1 / LabConversion.whiteX
  let xb = LabConversion.xFromRGB.2 / LabConversion.whiteX
  let yr = LabConversion.yFromRGB.0 / LabConversion.whiteY
  let yg = LabConversion.yFromRGB.1 / LabConversion.whiteY
  let yb = LabConversion.yFromRGB.2 / LabConversion.whiteY
  let zr = LabConversion.zFromRGB.0 / LabConversion.whiteZ
  let zg = LabConversion.zFromRGB.1 / LabConversion.whiteZ
  let zb = LabConversion.zFromRGB.2 / LabConversion.whiteZ
  let steps = Double(LabConversion.curveSteps)
  let lastInterval = LabConversion.curveSteps - 1

  init(linear: UnsafePointer<Double>, curve: UnsafePointer<Double>) {
    self.linear = linear
    self.curve = curve
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
    let r = linear[Int(pixel[0])] * alpha + background
    let g = linear[Int(pixel[1])] * alpha + background
    let b = linear[Int(pixel[2])] * alpha + background
    let fx = companded(xr * r + xg * g + xb * b)
    let fy = companded(yr * r + yg * g + yb * b)
    let fz = companded(zr * r + zg * g + zb * b)
    return LabColor(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
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
