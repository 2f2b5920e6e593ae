/// Renders bar heights (0…1) as RGBA pixels: a white canvas with blue bars and a grey baseline.
///
/// - Returns: `width × height × 4` bytes, row-major, top row first.
public func renderBarChart(_ values: [Double], width: Int, height: Int) -> [UInt8] {
  var pixels = [UInt8](repeating: 255, count: width * height * 4)
  let slot = width / max(values.count, 1)
  for (index, value) in values.enumerated() {
    let barHeight = Int((Double(height - 4) * min(max(value, 0), 1)).rounded())
    for x in (index * slot + 2)..<((index + 1) * slot - 2) {
      for y in (height - 2 - barHeight)..<(height - 2) {
        let offset = (y * width + x) * 4
        pixels[offset] = 40
        pixels[offset + 1] = 110
        pixels[offset + 2] = 220
      }
    }
  }
  for x in 0..<width {
    let offset = ((height - 2) * width + x) * 4
    pixels[offset] = 120
    pixels[offset + 1] = 120
    pixels[offset + 2] = 120
  }
  return pixels
}
