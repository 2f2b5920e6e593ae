extension Bitmap {
  /// The colour of pixels forgiven as anti-aliasing in a difference image.
  static let antialiasedColor = RGBA(red: 255, green: 255, blue: 0)
  /// The colour of masked pixels in a difference image.
  static let maskColor = RGBA(red: 255, green: 0, blue: 255)

  /// An image that shows where `new` differs from `reference`.
  ///
  /// For equal sizes: the reference faded to a light grey, with every failing pixel in red,
  /// darker for small differences and brighter for large ones (full brightness from ΔE\*94 20).
  /// For different sizes: the reference and the new image side by side, on transparency.
  ///
  /// The image diffing does not call this: it draws the image from the pass it compared with,
  /// through ``compare(_:_:options:threading:differenceImageUnless:)``.
  ///
  /// - Complexity: O(*n*) in the number of pixels.
  static func differenceImage(
    reference: Bitmap,
    new: Bitmap,
    perceptualPrecision: Float,
    threading: PixelComparisonThreading = .automatic
  ) -> Bitmap {
    guard reference.width == new.width, reference.height == new.height else {
      return sideBySide(reference, new)
    }
    let map = PixelDifferenceMap(pixelCount: reference.pixelCount)
    _ = PixelComparison.compare(
      reference: reference.rgbaBytes,
      new: new.rgbaBytes,
      tolerance: deltaETolerance(perceptualPrecision: perceptualPrecision),
      threading: threading,
      recordingInto: map
    )
    return differenceImage(reference: reference, map: map)
  }

  /// The reference faded to a light grey, with the pixels that `map` says fail in red, brighter
  /// the larger their ΔE\*94, those it forgave as anti-aliasing in yellow, and those `coverage`
  /// masks in magenta.
  ///
  /// - Parameter map: What a pass over `reference` and an image of its size found.
  static func differenceImage(
    reference: Bitmap,
    map: borrowing PixelDifferenceMap,
    coverage: MaskCoverage? = nil
  ) -> Bitmap {
    let pixelCount = reference.pixelCount
    let referenceBytes = reference.rgbaBytes
    var output = [UInt8](repeating: 255, count: pixelCount * 4)
    var index = 0
    while index < pixelCount {
      let offset = index * 4
      if map.isFailing(index) {
        let strength = min(Double(map.deltaE(index)) / 20, 1)
        output[offset] = UInt8(110 + 145 * strength)
        output[offset + 1] = 0
        output[offset + 2] = 0
      } else if map.isAntialiased(index) {
        paint(antialiasedColor, at: offset, in: &output)
      } else if let coverage, coverage.covers(index) {
        paint(maskColor, at: offset, in: &output)
      } else {
        // Rec. 709 luma of the reference over white, faded three-quarters of the way to white.
        let alpha = Double(referenceBytes[offset + 3]) / 255
        let luma =
          0.2126 * Double(referenceBytes[offset]) + 0.7152 * Double(referenceBytes[offset + 1])
          + 0.0722 * Double(referenceBytes[offset + 2])
        let overWhite = luma * alpha + 255 * (1 - alpha)
        let faded = UInt8(min(255, (255 * 3 + overWhite) / 4))
        output[offset] = faded
        output[offset + 1] = faded
        output[offset + 2] = faded
      }
      index += 1
    }
    return Bitmap(validWidth: reference.width, height: reference.height, rgbaBytes: output)
  }

  private static func paint(_ color: RGBA, at offset: Int, in output: inout [UInt8]) {
    output[offset] = color.red
    output[offset + 1] = color.green
    output[offset + 2] = color.blue
  }

  /// The two images next to each other, the reference on the left, on a transparent canvas.
  static func sideBySide(_ left: Bitmap, _ right: Bitmap) -> Bitmap {
    let width = left.width + right.width
    let height = max(left.height, right.height)
    var output = [UInt8](repeating: 0, count: width * height * 4)
    for (image, originX) in [(left, 0), (right, left.width)] {
      for y in 0..<image.height {
        let source = y * image.width * 4
        let destination = (y * width + originX) * 4
        output.replaceSubrange(
          destination..<destination + image.width * 4,
          with: image.rgbaBytes[source..<source + image.width * 4]
        )
      }
    }
    return Bitmap(validWidth: width, height: height, rgbaBytes: output)
  }
}
