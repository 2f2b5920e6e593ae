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
/// `@unchecked Sendable`: threads share it to read the images, which nothing writes meanwhile.
struct Antialiasing: @unchecked Sendable {
  let width: Int
  let height: Int
  /// The two images' RGBA bytes, `width × height × 4` each, valid while this value is used.
  let reference: UnsafeRawPointer
  let new: UnsafeRawPointer
  /// ``BrightnessTables/luma``, read once: a global read in the loops would check its
  /// initialisation every time.
  private let luma: UnsafePointer<Double>

  init(width: Int, height: Int, reference: UnsafePointer<UInt8>, new: UnsafePointer<UInt8>) {
    self.width = width
    self.height = height
    self.reference = UnsafeRawPointer(reference)
    self.new = UnsafeRawPointer(new)
    luma = BrightnessTables.luma
  }

  /// Whether pixel `index` is anti-aliasing in either image, the way pixelmatch decides.
  func isAntialiased(_ index: Int) -> Bool {
    isAntialiased(x: index % width, y: index / width)
  }

  /// Whether the pixel at column `x` and row `y` is anti-aliasing in either image. Callers that
  /// walk the image know both, and spare the two integer divisions of the index form, which cost
  /// more than the rest of a quick answer.
  func isAntialiased(x: Int, y: Int) -> Bool {
    isAntialiased(x: x, y: y, in: reference, other: new)
      || isAntialiased(x: x, y: y, in: new, other: reference)
  }

  private func isAntialiased(
    x: Int,
    y: Int,
    in image: UnsafeRawPointer,
    other: UnsafeRawPointer
  ) -> Bool {
    let centerOffset = (y &* width &+ x) &* 4
    let center = image.loadUnaligned(fromByteOffset: centerOffset, as: UInt32.self)
    let (neighbours, count) = neighbourOffsets(x, y)
    var equalCount = count < 8 ? 1 : 0
    // Most failing pixels sit in flat areas (the inside of a changed shape, a background): three
    // neighbours of the exact colour settle it before any brightness is computed. Checking every
    // neighbour for it first costs one comparison each, which noise-like areas pay without
    // benefit, but they pay for brightness anyway.
    var index = 0
    while index < count {
      if image.loadUnaligned(fromByteOffset: neighbours[index], as: UInt32.self) == center {
        equalCount &+= 1
        if equalCount > 2 { return false }
      }
      index &+= 1
    }
    let centerBrightness = brightness(center)
    var darkest = (delta: 0.0, neighbour: 0)
    var brightest = (delta: 0.0, neighbour: 0)
    // Neighbours often repeat a colour: the last one's brightness is kept.
    var lastNeighbour = center
    var lastBrightness = centerBrightness
    index = 0
    while index < count {
      let neighbour = image.loadUnaligned(fromByteOffset: neighbours[index], as: UInt32.self)
      index &+= 1
      // Exactly 0 for identical pixels, as pixelmatch has it; those were counted above.
      if neighbour == center { continue }
      if neighbour != lastNeighbour {
        lastNeighbour = neighbour
        lastBrightness = brightness(neighbour)
      }
      let delta = centerBrightness - lastBrightness
      if delta == 0 {
        equalCount &+= 1
        if equalCount > 2 { return false }
      } else if delta < darkest.delta {
        darkest = (delta, index &- 1)
      } else if delta > brightest.delta {
        brightest = (delta, index &- 1)
      }
    }
    guard darkest.delta != 0, brightest.delta != 0 else { return false }
    return isInFlatAreaOfBoth(darkest.neighbour, of: x, y, offsets: neighbours, image, other)
      || isInFlatAreaOfBoth(brightest.neighbour, of: x, y, offsets: neighbours, image, other)
  }

  /// Whether neighbour number `neighbour` (in ``neighbourOffsets(_:_:)``'s order) of pixel
  /// (`x`, `y`) is in a flat area of both images.
  @inline(__always)
  private func isInFlatAreaOfBoth(
    _ neighbour: Int,
    of x: Int,
    _ y: Int,
    offsets: InlineArray<8, Int>,
    _ image: UnsafeRawPointer,
    _ other: UnsafeRawPointer
  ) -> Bool {
    let (column, line) = neighbourPosition(neighbour, of: x, y)
    let offset = offsets[neighbour]
    return isInFlatArea(offset, x: column, y: line, in: image)
      && isInFlatArea(offset, x: column, y: line, in: other)
  }

  /// Whether at least three neighbours of the pixel at byte `offset`, column `x` and row `y`
  /// have its exact RGBA (an edge of the image counting as one).
  private func isInFlatArea(_ offset: Int, x: Int, y: Int, in image: UnsafeRawPointer) -> Bool {
    let (neighbours, count) = neighbourOffsets(x, y)
    let center = image.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    var equalCount = count < 8 ? 1 : 0
    var neighbour = 0
    while neighbour < count {
      if image.loadUnaligned(fromByteOffset: neighbours[neighbour], as: UInt32.self) == center {
        equalCount &+= 1
        if equalCount > 2 { return true }
      }
      neighbour &+= 1
    }
    return false
  }

  /// The byte offsets of the neighbours of pixel (x, y), columns first and rows within each (the
  /// order decides which of equally dark, or bright, neighbours is taken, as in pixelmatch), and
  /// how many there are: 8 inside the image, fewer on its edges.
  @inline(__always)
  private func neighbourOffsets(_ x: Int, _ y: Int) -> (InlineArray<8, Int>, Int) {
    let row = width &* 4
    let center = (y &* width &+ x) &* 4
    if x > 0 && y > 0 && x < width &- 1 && y < height &- 1 {
      return (
        [
          center &- row &- 4, center &- 4, center &+ row &- 4,
          center &- row, center &+ row,
          center &- row &+ 4, center &+ 4, center &+ row &+ 4,
        ],
        8
      )
    }
    var offsets = InlineArray<8, Int>(repeating: 0)
    var count = 0
    for column in max(x &- 1, 0)...min(x &+ 1, width &- 1) {
      for line in max(y &- 1, 0)...min(y &+ 1, height &- 1) where column != x || line != y {
        offsets[count] = (line &* width &+ column) &* 4
        count &+= 1
      }
    }
    return (offsets, count)
  }

  /// The column and row of neighbour number `neighbour` of pixel (x, y), in
  /// ``neighbourOffsets(_:_:)``'s order.
  @inline(__always)
  private func neighbourPosition(_ neighbour: Int, of x: Int, _ y: Int) -> (Int, Int) {
    if x > 0 && y > 0 && x < width &- 1 && y < height &- 1 {
      // (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1)
      let columns: InlineArray<8, Int> = [-1, -1, -1, 0, 0, 1, 1, 1]
      let lines: InlineArray<8, Int> = [-1, 0, 1, -1, 1, -1, 0, 1]
      return (x &+ columns[neighbour], y &+ lines[neighbour])
    }
    var count = 0
    for column in max(x &- 1, 0)...min(x &+ 1, width &- 1) {
      for line in max(y &- 1, 0)...min(y &+ 1, height &- 1) where column != x || line != y {
        if count == neighbour { return (column, line) }
        count &+= 1
      }
    }
    preconditionFailure("Pixel (\(x), \(y)) has no neighbour \(neighbour)")
  }

  /// YIQ's Y of an RGBA pixel blended over white, in pixelmatch's order of operations: for an
  /// opaque pixel, the same products from a table, added in the same order.
  @inline(__always)
  private func brightness(_ pixel: UInt32) -> Double {
    let bytes = pixel.littleEndian
    let red = Int(bytes & 0xFF)
    let green = Int((bytes >> 8) & 0xFF)
    let blue = Int((bytes >> 16) & 0xFF)
    let alpha = bytes >> 24
    if alpha == 255 {
      return luma[red] + luma[256 &+ green] + luma[512 &+ blue]
    }
    let opacity = Double(alpha) / 255
    let r = 255 + (Double(red) - 255) * opacity
    let g = 255 + (Double(green) - 255) * opacity
    let b = 255 + (Double(blue) - 255) * opacity
    return r * BrightnessTables.redWeight + g * BrightnessTables.greenWeight
      + b * BrightnessTables.blueWeight
  }
}

/// The column and row of pixel indices visited in ascending order, as a pass visits them: a
/// division only when the row changes, not for every pixel.
struct PixelCursor {
  let width: Int
  private var row = 0
  private var rowStart = 0
  private var nextRowStart = 0

  init(width: Int) {
    self.width = max(width, 1)
  }

  /// The column and row of pixel `index`.
  @inline(__always)
  mutating func position(of index: Int) -> (x: Int, y: Int) {
    if index >= nextRowStart || index < rowStart {
      row = index / width
      rowStart = row &* width
      nextRowStart = rowStart &+ width
    }
    return (index &- rowStart, row)
  }
}

/// Each channel value times its YIQ luma weight.
enum BrightnessTables {
  static let redWeight = 0.29889531
  static let greenWeight = 0.58662247
  static let blueWeight = 0.11448223

  /// 768 `Double`s: red values' products, then green's, then blue's. Built once, never freed,
  /// never written after: safe to read from any thread.
  nonisolated(unsafe) static let luma: UnsafePointer<Double> = {
    let table = UnsafeMutablePointer<Double>.allocate(capacity: 768)
    for value in 0..<256 {
      table[value] = Double(value) * redWeight
      table[256 + value] = Double(value) * greenWeight
      table[512 + value] = Double(value) * blueWeight
    }
    return UnsafePointer(table)
  }()
}
