import CPrefetch

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
/// Two paths give the same answers (a test asks both about every pixel): inside the image,
/// whole neighbourhoods at once, in vectors; near its edges, where a pixel has fewer than eight
/// neighbours, one neighbour at a time.
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
    guard hasWindow(x, y) else { return isAntialiasedOnAnyPath(x: x, y: y) }
    // Most neighbourhoods are settled by their equal pixels alone, here, without a call.
    let referenceWindow = window(x, y, in: reference)
    if Self.needsBrightness(referenceWindow)
      && isAntialiasedInside(referenceWindow, x: x, y: y, in: reference, other: new)
    {
      return true
    }
    let newWindow = window(x, y, in: new)
    return Self.needsBrightness(newWindow)
      && isAntialiasedInside(newWindow, x: x, y: y, in: new, other: reference)
  }

  /// Asks the processor to fetch the two rows below pixel `index`, in both images, which the
  /// test of that pixel reads. A comparison pass streams the images row by row: the rows above
  /// are still in the cache, those below are not yet, and waiting for them cost a tenth of the
  /// test's time. Harmless for any index in the image.
  @inline(__always)
  func prefetchRowsBelow(_ index: Int) {
    let row = width &* 4
    let last = (width &* height &- 1) &* 4
    let below = min(index &* 4 &+ row, last)
    let twoBelow = min(index &* 4 &+ 2 &* row, last)
    snapshot_testing_prefetch(reference + below)
    snapshot_testing_prefetch(new + below)
    snapshot_testing_prefetch(reference + twoBelow)
    snapshot_testing_prefetch(new + twoBelow)
  }

  /// ``isAntialiased(x:y:)`` by the path that handles any pixel, the edges of the image
  /// included, one neighbour at a time; the faster path inside must agree with it everywhere.
  func isAntialiasedOnAnyPath(x: Int, y: Int) -> Bool {
    isAntialiased(x: x, y: y, in: reference, other: new)
      || isAntialiased(x: x, y: y, in: new, other: reference)
  }

  // MARK: Inside the image: whole neighbourhoods at once

  /// Three rows of four pixels, from column `x - 1` of rows `y - 1`, `y` and `y + 1`: a pixel's
  /// neighbourhood and, in the last lanes, one column more that is never looked at.
  private struct Window {
    var above: SIMD4<UInt32>
    var middle: SIMD4<UInt32>
    var below: SIMD4<UInt32>
  }

  /// Whether pixel (x, y) has its eight neighbours and its ``Window`` can be read: the window's
  /// spare column must not run past the end of the image, which only the last row can.
  @inline(__always)
  private func hasWindow(_ x: Int, _ y: Int) -> Bool {
    x > 0 && y > 0 && x < width &- 1 && y < height &- 1 && (y < height &- 2 || x < width &- 2)
  }

  @inline(__always)
  private func window(_ x: Int, _ y: Int, in image: UnsafeRawPointer) -> Window {
    let row = width &* 4
    let first = ((y &- 1) &* width &+ x &- 1) &* 4
    return Window(
      above: image.loadUnaligned(fromByteOffset: first, as: SIMD4<UInt32>.self),
      middle: image.loadUnaligned(fromByteOffset: first &+ row, as: SIMD4<UInt32>.self),
      below: image.loadUnaligned(fromByteOffset: first &+ 2 &* row, as: SIMD4<UInt32>.self)
    )
  }

  /// How many of the eight neighbours of the window's centre have exactly its RGBA.
  @inline(__always)
  private static func equalNeighbours(in window: Window) -> Int {
    // The centre is equal to itself.
    matches(of: window.middle[1], in: window, centre: 1)
  }

  /// Whether the eight neighbours of the window's centre all have the same RGBA.
  @inline(__always)
  private static func neighboursAreAlike(in window: Window) -> Bool {
    let first = window.above[0]
    return matches(of: first, in: window, centre: window.middle[1] == first ? 1 : 0) == 8
  }

  /// How many of the window's nine pixels are `pixel`, less `centre`.
  @inline(__always)
  private static func matches(of pixel: UInt32, in window: Window, centre: Int) -> Int {
    let wanted = SIMD4<UInt32>(repeating: pixel)
    // A comparison's lanes are -1 where true: summed as integers, they count the matches
    // negatively, in one instruction a row (`replacing(with:where:)` takes several).
    let sum =
      lanes(of: window.above .== wanted) &+ lanes(of: window.middle .== wanted)
      &+ lanes(of: window.below .== wanted)
    let counted = sum & SIMD4(-1, -1, -1, 0)
    return Int(0 &- counted.wrappedSum()) &- centre
  }

  /// A mask's lanes as the integers it holds: -1 for true, 0 for false.
  @inline(__always)
  private static func lanes(of mask: SIMDMask<SIMD4<Int32>>) -> SIMD4<Int32> {
    unsafeBitCast(mask, to: SIMD4<Int32>.self)
  }

  /// Whether the test of the window's centre goes on to its neighbours' brightness: it ends
  /// when more than two neighbours have the centre's exact colour, or when all eight have one
  /// colour (a changed pixel on a plain background), which makes them all as dark as each other
  /// and never both darker and brighter.
  @inline(__always)
  private static func needsBrightness(_ window: Window) -> Bool {
    equalNeighbours(in: window) <= 2 && !neighboursAreAlike(in: window)
  }

  /// ``isAntialiased(x:y:in:other:)`` for a pixel with a ``Window`` that
  /// ``needsBrightness(_:)``: the same test, with the eight neighbours' brightness computed at
  /// once, in vectors of `Double`s with the same operations in the same order (so to the bit),
  /// and no branch per neighbour.
  private func isAntialiasedInside(
    _ window: Window,
    x: Int,
    y: Int,
    in image: UnsafeRawPointer,
    other: UnsafeRawPointer
  ) -> Bool {
    // In neighbourOffsets(_:_:)'s order: columns, then rows within each.
    let neighbours = SIMD8<UInt32>(
      lowHalf: SIMD4(window.above[0], window.middle[0], window.below[0], window.above[1]),
      highHalf: SIMD4(window.below[1], window.above[2], window.middle[2], window.below[2])
    )
    let deltas = brightness(window.middle[1]) - Self.brightness(neighbours)
    let zeroes = 0 &- unsafeBitCast(deltas .== 0, to: SIMD8<Int64>.self).wrappedSum()
    let (darkest, brightest) = Self.extremes(of: deltas)
    guard zeroes <= 2, darkest < 0, brightest > 0 else { return false }
    // Of equally dark (or bright) neighbours, the first is taken.
    return isInFlatAreaOfBoth(Self.firstLane(of: deltas .== darkest), of: x, y, image, other)
      || isInFlatAreaOfBoth(Self.firstLane(of: deltas .== brightest), of: x, y, image, other)
  }

  /// The brightness of eight pixels, as ``brightness(_:)`` computes each.
  @inline(__always)
  private static func brightness(_ pixels: SIMD8<UInt32>) -> SIMD8<Double> {
    let byte = SIMD8<UInt32>(repeating: 0xFF)
    var red = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: pixels & byte))
    var green = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: (pixels &>> 8) & byte))
    var blue = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: (pixels &>> 16) & byte))
    let alpha = pixels &>> 24
    if any(alpha .!= byte) {
      // Blended over white; an opaque pixel's opacity is exactly 1, which changes nothing.
      let opacity = SIMD8<Double>(SIMD8<Int32>(truncatingIfNeeded: alpha)) / 255
      red = 255 + (red - 255) * opacity
      green = 255 + (green - 255) * opacity
      blue = 255 + (blue - 255) * opacity
    }
    return red * BrightnessTables.redWeight + green * BrightnessTables.greenWeight
      + blue * BrightnessTables.blueWeight
  }

  /// The smallest and the largest lane of `values`, none of which is NaN, halving the vector:
  /// the standard library's `min()` and `max()` take one lane at a time.
  @inline(__always)
  private static func extremes(of values: SIMD8<Double>) -> (Double, Double) {
    let (a, b) = (values.lowHalf, values.highHalf)
    let low4 = a.replacing(with: b, where: b .< a)
    let high4 = a.replacing(with: b, where: b .> a)
    let low2 = low4.lowHalf.replacing(with: low4.highHalf, where: low4.highHalf .< low4.lowHalf)
    let high2 = high4.lowHalf.replacing(with: high4.highHalf, where: high4.highHalf .> high4.lowHalf)
    return (Swift.min(low2[0], low2[1]), Swift.max(high2[0], high2[1]))
  }

  /// The index of the first true lane of `mask`, which has one.
  @inline(__always)
  private static func firstLane(of mask: SIMDMask<SIMD8<Int64>>) -> Int {
    let bits = unsafeBitCast(mask, to: SIMD8<Int64>.self) & SIMD8(1, 2, 4, 8, 16, 32, 64, 128)
    return bits.wrappedSum().trailingZeroBitCount
  }

  /// Whether neighbour number `neighbour` of pixel (x, y), in ``neighbourOffsets(_:_:)``'s
  /// order, is in a flat area of both images; the pixel has all eight.
  @inline(__always)
  private func isInFlatAreaOfBoth(
    _ neighbour: Int,
    of x: Int,
    _ y: Int,
    _ image: UnsafeRawPointer,
    _ other: UnsafeRawPointer
  ) -> Bool {
    let (column, line) = neighbourPosition(neighbour, of: x, y)
    guard hasWindow(column, line) else {
      let offset = (line &* width &+ column) &* 4
      return isInFlatArea(offset, x: column, y: line, in: image)
        && isInFlatArea(offset, x: column, y: line, in: other)
    }
    return Self.equalNeighbours(in: window(column, line, in: image)) > 2
      && Self.equalNeighbours(in: window(column, line, in: other)) > 2
  }

  // MARK: Anywhere: one neighbour at a time

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
