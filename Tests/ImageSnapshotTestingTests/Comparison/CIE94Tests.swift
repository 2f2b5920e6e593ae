import Testing

@testable import ImageSnapshotTesting

@Suite struct CIE94Tests {
  /// Published ΔE*94 (graphic arts) values:
  /// - colour-science's test suite (`colour/difference/tests/test_delta_e.py`), three pairs;
  /// - python-colormath's test suite (`test_cie1994_accuracy_graphic_arts`), to 3 decimals.
  @Test(arguments: [
    (
      (100.0, 21.57210357, 272.22819350), (100.0, 426.67945353, 72.39590835), 83.779225500887094,
      1e-9
    ),
    (
      (100.0, 21.57210357, 272.22819350), (100.0, 74.05216981, 276.45318193), 10.053931954553839,
      1e-9
    ),
    (
      (100.0, 21.57210357, 272.22819350), (100.0, 8.32281957, -73.58297716), 57.535453706667425,
      1e-9
    ),
    ((0.9, 16.3, -2.22), (0.7, 14.2, -1.80), 1.249, 5e-4),
  ])
  func publishedPairs(
    reference: (Double, Double, Double),
    sample: (Double, Double, Double),
    expected: Double,
    tolerance: Double
  ) {
    let deltaE = cie94Difference(
      reference: LabColor(l: reference.0, a: reference.1, b: reference.2),
      sample: LabColor(l: sample.0, a: sample.1, b: sample.2)
    )
    #expect(abs(deltaE - expected) < tolerance, "ΔE*94 \(deltaE), expected \(expected)")
  }

  @Test func handComputedComponents() {
    func deltaE(_ r: (Double, Double, Double), _ s: (Double, Double, Double)) -> Double {
      cie94Difference(
        reference: LabColor(l: r.0, a: r.1, b: r.2),
        sample: LabColor(l: s.0, a: s.1, b: s.2)
      )
    }
    // Lightness alone: S_L = 1, so ΔE*94 = |ΔL|.
    #expect(deltaE((50, 0, 0), (47, 0, 0)) == 3)
    // Chroma alone on the a axis: C₁ = 10, ΔC = 10, S_C = 1 + 0.045·10 = 1.45, ΔH = 0.
    #expect(abs(deltaE((50, 10, 0), (50, 0, 0)) - 10 / 1.45) < 1e-12)
    // Hue alone: C₁ = C₂ = 10, ΔC = 0, ΔH² = Δa² + Δb² = 200, S_H = 1 + 0.015·10 = 1.15.
    #expect(abs(deltaE((50, 10, 0), (50, 0, 10)) - 200.0.squareRoot() / 1.15) < 1e-12)
    // Not symmetric: weighted by the reference's chroma, here 0, so S_C = 1 and ΔE*94 = ΔC = 10.
    #expect(abs(deltaE((50, 0, 0), (50, 10, 0)) - 10) < 1e-12)
    // Black to white is the whole lightness scale.
    #expect(deltaE((100, 0, 0), (0, 0, 0)) == 100)
  }

  /// sRGB primaries in CIELAB (D65), as tabulated by Bruce Lindbloom's calculator.
  @Test(arguments: [
    (RGBA(red: 255, green: 0, blue: 0), (53.2408, 80.0925, 67.2032)),
    (RGBA(red: 0, green: 255, blue: 0), (87.7347, -86.1827, 83.1793)),
    (RGBA(red: 0, green: 0, blue: 255), (32.2970, 79.1875, -107.8602)),
    (RGBA.white, (100.0, 0.0, 0.0)),
    (RGBA.black, (0.0, 0.0, 0.0)),
  ])
  func srgbToLab(pixel: RGBA, expected: (Double, Double, Double)) {
    let lab = LabConversion.exactLab(pixel, overWhite: false)
    #expect(abs(lab.l - expected.0) < 0.01)
    #expect(abs(lab.a - expected.1) < 0.01)
    #expect(abs(lab.b - expected.2) < 0.01)
  }

  @Test func lookupTablesAgreeWithTheExactConversion() throws {
    // Every 8-bit gray, and a spread of colours and alphas, through the pixel loop's tables.
    var worst = 0.0
    let lookup = LabLookup.shared
    for code in stride(from: 0, through: 255, by: 1) {
      for alpha in [0, 1, 77, 128, 254, 255] {
        let pixel = RGBA(
          red: UInt8(code),
          green: UInt8((code * 7) % 256),
          blue: UInt8((code * 13) % 256),
          alpha: UInt8(alpha)
        )
        let bytes = [pixel.red, pixel.green, pixel.blue, pixel.alpha]
        for overWhite in [false, true] {
          let a = Double(alpha) / 255
          let fast = bytes.withUnsafeBufferPointer {
            lookup.lab($0.baseAddress!, alpha: a, background: overWhite ? 1 - a : 0)
          }
          let exact = LabConversion.exactLab(pixel, overWhite: overWhite)
          worst = max(worst, cie94Difference(reference: exact, sample: fast))
        }
      }
    }
    #expect(worst < 1e-3, "largest ΔE*94 between table and exact conversion: \(worst)")
  }
}
