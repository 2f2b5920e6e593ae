/// Linear sRGB → CIE XYZ (D65), with each row divided by the white point's component: it gives
/// the ratios X/Xn, Y/Yn and Z/Zn that CIELAB's f(t) takes.
///
/// The one copy of these constants. ``LabLookup`` reads it in `Double`, ``DeltaEKernel`` in
/// `Float` and ``LabConversion`` in its table-free conversion.
struct NormalizedXYZMatrix: Sendable {
  let xr: Double
  let xg: Double
  let xb: Double
  let yr: Double
  let yg: Double
  let yb: Double
  let zr: Double
  let zg: Double
  let zb: Double

  /// The IEC 61966-2-1 matrix.
  static let sRGB = NormalizedXYZMatrix(
    x: (0.412_456_4, 0.357_576_1, 0.180_437_5),
    y: (0.212_672_9, 0.715_152_2, 0.072_175_0),
    z: (0.019_333_9, 0.119_192_0, 0.950_304_1)
  )

  /// Divides each row by its sum: the white point is taken as the image of linear white
  /// (1, 1, 1), so that white is exactly L 100, a 0, b 0.
  init(x: (Double, Double, Double), y: (Double, Double, Double), z: (Double, Double, Double)) {
    let whiteX = x.0 + x.1 + x.2
    let whiteY = y.0 + y.1 + y.2
    let whiteZ = z.0 + z.1 + z.2
    (xr, xg, xb) = (x.0 / whiteX, x.1 / whiteX, x.2 / whiteX)
    (yr, yg, yb) = (y.0 / whiteY, y.1 / whiteY, y.2 / whiteY)
    (zr, zg, zb) = (z.0 / whiteZ, z.1 / whiteZ, z.2 / whiteZ)
  }

  /// The CIELAB colour of a linear-light colour, each component 0...1, with `curve` as f(t).
  @inline(__always)
  func lab(red r: Double, green g: Double, blue b: Double, curve: (Double) -> Double) -> LabColor {
    let fx = curve(xr * r + xg * g + xb * b)
    let fy = curve(yr * r + yg * g + yb * b)
    let fz = curve(zr * r + zg * g + zb * b)
    return LabColor(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
  }
}
