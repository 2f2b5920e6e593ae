/// A colour in CIELAB (D65 white): lightness `l` 0...100, and the opponent axes `a`
/// (green–red) and `b` (blue–yellow).
struct LabColor: Equatable {
  var l: Double
  var a: Double
  var b: Double
}

/// The CIE 1994 colour difference ΔE\*94 with the graphic-arts weights.
///
/// ΔE\*94 = √((ΔL/S_L)² + (ΔC/S_C)² + (ΔH/S_H)²) with k_L = k_C = k_H = 1, S_L = 1,
/// S_C = 1 + K1·C₁, S_H = 1 + K2·C₁, K1 = 0.045, K2 = 0.015, where C₁ is the chroma of the
/// reference colour. The formula is not symmetric: the first colour is the reference (the recorded
/// snapshot), as the standard prescribes. About 2.3 is one just-noticeable difference.
///
/// - Complexity: O(1), three square roots.
@inline(__always)
func cie94Difference(reference: LabColor, sample: LabColor) -> Double {
  let k1 = 0.045
  let k2 = 0.015
  let deltaL = reference.l - sample.l
  let chromaReference = (reference.a * reference.a + reference.b * reference.b).squareRoot()
  let chromaSample = (sample.a * sample.a + sample.b * sample.b).squareRoot()
  let deltaC = chromaReference - chromaSample
  let deltaA = reference.a - sample.a
  let deltaB = reference.b - sample.b
  // ΔH² = Δa² + Δb² − ΔC², which rounding can push just below zero for pure chroma changes.
  let deltaHSquared = max(0, deltaA * deltaA + deltaB * deltaB - deltaC * deltaC)
  let scaleC = 1 + k1 * chromaReference
  let scaleH = 1 + k2 * chromaReference
  let termC = deltaC / scaleC
  return (deltaL * deltaL + termC * termC + deltaHSquared / (scaleH * scaleH)).squareRoot()
}
