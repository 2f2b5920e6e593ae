#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// sRGB → linear light → CIE XYZ (D65) → CIELAB, computed without tables: the definitions that
/// ``LabLookup``'s tables are built from, and that tests check them against.
///
/// Alpha is handled by compositing in linear light over a black or a white background, because a
/// translucent pixel's look depends on what is under it.
enum LabConversion {
  /// The linear-light value of an 8-bit sRGB code (the IEC 61966-2-1 transfer function).
  static func linearLight(_ code: UInt8) -> Double {
    let value = Double(code) / 255
    return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
  }

  /// CIELAB's f(t): a cube root, with a straight segment near black.
  static func exactLabCurve(_ t: Double) -> Double {
    let epsilon = 216.0 / 24_389  // (6/29)³
    let kappa = 24_389.0 / 27  // (29/3)³
    return t > epsilon ? cbrt(t) : (kappa * t + 16) / 116
  }

  /// The CIELAB colour of a linear-light RGB triple, each 0...1.
  static func exactLab(linearRed r: Double, green g: Double, blue b: Double) -> LabColor {
    NormalizedXYZMatrix.sRGB.lab(red: r, green: g, blue: b, curve: exactLabCurve)
  }

  /// The CIELAB colour of an 8-bit straight-alpha sRGB pixel composited over black or white.
  static func exactLab(_ pixel: RGBA, overWhite: Bool) -> LabColor {
    let alpha = Double(pixel.alpha) / 255
    let background = overWhite ? 1 - alpha : 0
    return exactLab(
      linearRed: linearLight(pixel.red) * alpha + background,
      green: linearLight(pixel.green) * alpha + background,
      blue: linearLight(pixel.blue) * alpha + background
    )
  }
}
