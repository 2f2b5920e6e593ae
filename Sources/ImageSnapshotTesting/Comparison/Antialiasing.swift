/// Anti-aliasing detection: whether a pixel is probably an edge's blend of its neighbours, which
/// another renderer may blend differently, rather than content.
///
/// The test is V. Vysniauskas's "Anti-aliased pixel and intensity slope detector" (2009) as
/// pixelmatch applies it, with the same arithmetic, so that both classify the same pixels:
/// 1. among its eight neighbours (fewer at an edge of the image, which counts as one equal
///    neighbour), a candidate has at most two of exactly its brightness, at least one darker and
///    at least one brighter;
/// 2. its darkest or its brightest neighbour (the first found, scanning columns then rows) sits
///    in a flat area: at least three neighbours of its exact colour, in both images.
///
/// Brightness is the Y of YIQ, of the colour blended over white.
///
/// Used only on pixels that already fail, so its cost grows with the difference, not the image.
struct Antialiasing {
  let width: Int
  let height: Int
  /// The two images' RGBA bytes, `width × height × 4` each, valid while this value is used.
  let reference: UnsafePointer<UInt8>
  let new: UnsafePointer<UInt8>

  /// Whether pixel `index` is anti-aliasing in either image, the way pixelmatch decides.
  func isAntialiased(_ index: Int) -> Bool {
    let x = index % width
    let y = index / width
    return isAntialiased(x: x, y: y, in: reference, other: new)
      || isAntialiased(x: x, y: y, in: new, other: reference)
  }

  private func isAntialiased(
    x: Int,
    y: Int,
    in image: UnsafePointer<UInt8>,
    other: UnsafePointer<UInt8>
  ) -> Bool {
    let columns = max(x - 1, 0)...min(x + 1, width - 1)
    let rows = max(y - 1, 0)...min(y + 1, height - 1)
    let center = (y * width + x) * 4
    var equalCount = isOnEdge(x: x, y: y) ? 1 : 0
    var darkest = (delta: 0.0, x: 0, y: 0)
    var brightest = (delta: 0.0, x: 0, y: 0)
    for column in columns {
      for row in rows where column != x || row != y {
        let delta = brightnessDelta(image, center, (row * width + column) * 4)
        if delta == 0 {
          equalCount += 1
          if equalCount > 2 { return false }
        } else if delta < darkest.delta {
          darkest = (delta, column, row)
        } else if delta > brightest.delta {
          brightest = (delta, column, row)
        }
      }
    }
    guard darkest.delta != 0, brightest.delta != 0 else { return false }
    return (isInFlatArea(x: darkest.x, y: darkest.y, in: image)
      && isInFlatArea(x: darkest.x, y: darkest.y, in: other))
      || (isInFlatArea(x: brightest.x, y: brightest.y, in: image)
        && isInFlatArea(x: brightest.x, y: brightest.y, in: other))
  }

  /// Whether at least three neighbours of pixel (x, y) have its exact RGBA (an edge of the image
  /// counting as one).
  private func isInFlatArea(x: Int, y: Int, in image: UnsafePointer<UInt8>) -> Bool {
    let center = (y * width + x) * 4
    let centerPixel = UnsafeRawPointer(image).loadUnaligned(fromByteOffset: center, as: UInt32.self)
    var equalCount = isOnEdge(x: x, y: y) ? 1 : 0
    for column in max(x - 1, 0)...min(x + 1, width - 1) {
      for row in max(y - 1, 0)...min(y + 1, height - 1) where column != x || row != y {
        let offset = (row * width + column) * 4
        if UnsafeRawPointer(image).loadUnaligned(fromByteOffset: offset, as: UInt32.self)
          == centerPixel
        {
          equalCount += 1
        }
        if equalCount > 2 { return true }
      }
    }
    return false
  }

  private func isOnEdge(x: Int, y: Int) -> Bool {
    x == 0 || y == 0 || x == width - 1 || y == height - 1
  }

  /// The brightness of the pixel at byte `first` minus that at byte `second`, both over white;
  /// exactly 0 for identical pixels.
  private func brightnessDelta(_ image: UnsafePointer<UInt8>, _ first: Int, _ second: Int) -> Double
  {
    if UnsafeRawPointer(image).loadUnaligned(fromByteOffset: first, as: UInt32.self)
      == UnsafeRawPointer(image).loadUnaligned(fromByteOffset: second, as: UInt32.self)
    {
      return 0
    }
    return brightness(image + first) - brightness(image + second)
  }

  /// YIQ's Y of an RGBA pixel blended over white, in pixelmatch's order of operations.
  private func brightness(_ pixel: UnsafePointer<UInt8>) -> Double {
    var red = Double(pixel[0])
    var green = Double(pixel[1])
    var blue = Double(pixel[2])
    if pixel[3] < 255 {
      let alpha = Double(pixel[3]) / 255
      red = 255 + (red - 255) * alpha
      green = 255 + (green - 255) * alpha
      blue = 255 + (blue - 255) * alpha
    }
    return red * 0.29889531 + green * 0.58662247 + blue * 0.11448223
  }
}
