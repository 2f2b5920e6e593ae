/// sRGB → linear light → CIE XYZ (D65) → CIELAB, with lookup tables so the per-pixel work is
/// multiplications and table reads.
///
/// Alpha is handled by compositing in linear light over a black or a white background, because a
/// translucent pixel's look depends on what is under it.
struct LabConversion: Sendable {
  /// The one shared instance; its tables are built once.
  static let shared = LabConversion()

  /// Linear-light value of each 8-bit sRGB code (the IEC 61966-2-1 transfer function).
  let linearFromSRGB: [Double]
  /// The same, as `Float`, for the estimating kernel of the pixel loop.
  let linearFloatFromSRGB: [Float]
  /// The CIELAB companding function f(t) sampled at t = i / `curveSteps`, for i in 0...curveSteps,
  /// read with linear interpolation. Its error is below 2·10⁻⁴ in ΔE.
  let labCurve: [Double]
  static let curveSteps = 16_384

  // sRGB (linear) → XYZ, D65, from IEC 61966-2-1.
  static let xFromRGB = (0.412_456_4, 0.357_576_1, 0.180_437_5)
  static let yFromRGB = (0.212_672_9, 0.715_152_2, 0.072_175_0)
  static let zFromRGB = (0.019_333_9, 0.119_192_0, 0.950_304_1)
  // The white point is the image of linear white (1, 1, 1), so white is exactly L 100, a 0, b 0.
  static let whiteX = xFromRGB.0 + xFromRGB.1 + xFromRGB.2
  static let whiteY = yFromRGB.0 + yFromRGB.1 + yFromRGB.2
  static let whiteZ = zFromRGB.0 + zFromRGB.1 + zFromRGB.2

  init() {
    linearFromSRGB = (0..<256).map { code in
      let value = Double(code) / 255
      return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    linearFloatFromSRGB = linearFromSRGB.map { Float($0) }
    labCurve = (0...Self.curveSteps).map { step in
      Self.exactLabCurve(Double(step) / Double(Self.curveSteps))
    }
  }

  /// CIELAB's f(t): a cube root, with a straight segment near black.
  static func exactLabCurve(_ t: Double) -> Double {
    let epsilon = 216.0 / 24_389  // (6/29)³
    let kappa = 24_389.0 / 27  // (29/3)³
    return t > epsilon ? cbrt(t) : (kappa * t + 16) / 116
  }

  /// The CIELAB colour of a linear-light RGB triple, each 0...1, computed without tables.
  /// Used to check the tables and in tests.
  static func exactLab(linearRed r: Double, green g: Double, blue b: Double) -> LabColor {
    let x = (xFromRGB.0 * r + xFromRGB.1 * g + xFromRGB.2 * b) / whiteX
    let y = (yFromRGB.0 * r + yFromRGB.1 * g + yFromRGB.2 * b) / whiteY
    let z = (zFromRGB.0 * r + zFromRGB.1 * g + zFromRGB.2 * b) / whiteZ
    let fx = exactLabCurve(x)
    let fy = exactLabCurve(y)
    let fz = exactLabCurve(z)
    return LabColor(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
  }

  /// The CIELAB colour of an 8-bit straight-alpha sRGB pixel composited over black or white,
  /// computed without tables.
  static func exactLab(_ pixel: RGBA, overWhite: Bool) -> LabColor {
    func linear(_ code: UInt8) -> Double {
      let value = Double(code) / 255
      return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    let alpha = Double(pixel.alpha) / 255
    let background = overWhite ? 1 - alpha : 0
    return exactLab(
      linearRed: linear(pixel.red) * alpha + background,
      green: linear(pixel.green) * alpha + background,
      blue: linear(pixel.blue) * alpha + background
    )
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
