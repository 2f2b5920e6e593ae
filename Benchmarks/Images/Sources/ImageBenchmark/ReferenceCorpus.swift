// Screenshot-like images for the reference-size benchmark, drawn by code so that every run gets
// the same pixels: flat interface colours, text-like strokes, charts with anti-aliased lines, icons
// with alpha, a gray scan with noise and photo-like gradients, from 24×16 to 1440×900.

import Foundation

/// One image of the corpus: 8-bit RGBA, straight alpha, rows top to bottom.
struct CorpusImage {
  var name: String
  var kind: String
  var width: Int
  var height: Int
  var rgba: [UInt8]
}

/// A colour with straight alpha.
struct Colour {
  var red: UInt8
  var green: UInt8
  var blue: UInt8
  var alpha: UInt8 = 255

  init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  static let white = Colour(255, 255, 255)
  static let black = Colour(0, 0, 0)
  static let clear = Colour(0, 0, 0, 0)
}

/// SplitMix64: a small deterministic generator, so that "random" details are the same each run.
struct SeededGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// A number in -1...1.
  mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 23) - 1 }
}

/// A software canvas: source-over blending of shapes whose edges are anti-aliased by their
/// distance to the pixel centre.
struct Canvas {
  let width: Int
  let height: Int
  var rgba: [UInt8]

  init(width: Int, height: Int, background: Colour) {
    self.width = width
    self.height = height
    rgba = [UInt8](repeating: 0, count: width * height * 4)
    for index in 0..<width * height {
      rgba[index * 4] = background.red
      rgba[index * 4 + 1] = background.green
      rgba[index * 4 + 2] = background.blue
      rgba[index * 4 + 3] = background.alpha
    }
  }

  /// Blends `colour` over the pixel, with its alpha scaled by `coverage` (0...1).
  mutating func blend(_ x: Int, _ y: Int, _ colour: Colour, coverage: Float = 1) {
    guard x >= 0, y >= 0, x < width, y < height, coverage > 0 else { return }
    let offset = (y * width + x) * 4
    let sourceAlpha = Float(colour.alpha) / 255 * min(coverage, 1)
    let destinationAlpha = Float(rgba[offset + 3]) / 255
    let alpha = sourceAlpha + destinationAlpha * (1 - sourceAlpha)
    guard alpha > 0 else { return }
    let source = [colour.red, colour.green, colour.blue]
    for channel in 0..<3 {
      let value =
        (Float(source[channel]) * sourceAlpha + Float(rgba[offset + channel]) * destinationAlpha
          * (1 - sourceAlpha)) / alpha
      rgba[offset + channel] = UInt8(min(255, max(0, value.rounded())))
    }
    rgba[offset + 3] = UInt8(min(255, max(0, (alpha * 255).rounded())))
  }

  /// Replaces the pixel, alpha included.
  mutating func set(_ x: Int, _ y: Int, _ colour: Colour) {
    guard x >= 0, y >= 0, x < width, y < height else { return }
    let offset = (y * width + x) * 4
    rgba[offset] = colour.red
    rgba[offset + 1] = colour.green
    rgba[offset + 2] = colour.blue
    rgba[offset + 3] = colour.alpha
  }

  mutating func fillRect(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ colour: Colour) {
    for row in max(0, y)..<min(height, y + h) {
      for column in max(0, x)..<min(width, x + w) { blend(column, row, colour) }
    }
  }

  /// Covers the pixels for which `distance` (negative inside) is below half a pixel, fading over
  /// one pixel at the edge, within the box `x0...x1`, `y0...y1`.
  mutating func fillShape(
    _ x0: Float,
    _ y0: Float,
    _ x1: Float,
    _ y1: Float,
    _ colour: Colour,
    distance: (Float, Float) -> Float
  ) {
    let top = max(0, Int(y0) - 1)
    let bottom = min(height - 1, Int(y1) + 1)
    let left = max(0, Int(x0) - 1)
    let right = min(width - 1, Int(x1) + 1)
    guard top <= bottom, left <= right else { return }
    for row in top...bottom {
      for column in left...right {
        let coverage = 0.5 - distance(Float(column) + 0.5, Float(row) + 0.5)
        if coverage > 0 { blend(column, row, colour, coverage: coverage) }
      }
    }
  }

  mutating func fillCircle(_ cx: Float, _ cy: Float, _ radius: Float, _ colour: Colour) {
    fillShape(cx - radius, cy - radius, cx + radius, cy + radius, colour) { x, y in
      ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - radius
    }
  }

  mutating func fillRoundedRect(
    _ x: Float,
    _ y: Float,
    _ w: Float,
    _ h: Float,
    radius: Float,
    _ colour: Colour
  ) {
    fillShape(x, y, x + w, y + h, colour) { px, py in
      let qx = abs(px - (x + w / 2)) - (w / 2 - radius)
      let qy = abs(py - (y + h / 2)) - (h / 2 - radius)
      let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
      return outside + min(max(qx, qy), 0) - radius
    }
  }

  mutating func strokeLine(
    _ x0: Float,
    _ y0: Float,
    _ x1: Float,
    _ y1: Float,
    width lineWidth: Float,
    _ colour: Colour
  ) {
    let half = lineWidth / 2
    let dx = x1 - x0
    let dy = y1 - y0
    let lengthSquared = max(dx * dx + dy * dy, 1e-6)
    fillShape(
      min(x0, x1) - half,
      min(y0, y1) - half,
      max(x0, x1) + half,
      max(y0, y1) + half,
      colour
    ) { px, py in
      let t = max(0, min(1, ((px - x0) * dx + (py - y0) * dy) / lengthSquared))
      let ex = px - (x0 + t * dx)
      let ey = py - (y0 + t * dy)
      return (ex * ex + ey * ey).squareRoot() - half
    }
  }

  mutating func strokeCircle(
    _ cx: Float,
    _ cy: Float,
    _ radius: Float,
    width lineWidth: Float,
    _ colour: Colour
  ) {
    let outer = radius + lineWidth / 2
    fillShape(cx - outer, cy - outer, cx + outer, cy + outer, colour) { x, y in
      abs(((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() - radius) - lineWidth / 2
    }
  }

  /// Text-like marks: each character cell gets two to four strokes picked by a hash of its
  /// position, like glyphs of a proportional font at `size` pixels; spaces break the line into
  /// words. Returns the x where the text ends.
  @discardableResult
  mutating func text(
    _ x: Float,
    _ y: Float,
    characters: Int,
    size: Float,
    _ colour: Colour,
    seed: UInt64,
    weight: Float = 1.1
  ) -> Float {
    var generator = SeededGenerator(seed: seed)
    var pen = x
    let cellHeight = size
    for _ in 0..<characters {
      if generator.below(6) == 0 {
        pen += size * 0.35
        continue
      }
      let advance = size * (0.45 + Float(generator.below(30)) / 100)
      let strokes = 2 + generator.below(3)
      for _ in 0..<strokes {
        let shape = generator.below(5)
        let left = pen + 0.5
        let right = pen + advance - size * 0.12
        let top = y + (generator.below(3) == 0 ? 0 : cellHeight * 0.3)
        let bottom = y + cellHeight * 0.95
        switch shape {
        case 0: strokeLine(left, top, left, bottom, width: weight, colour)
        case 1: strokeLine(left, bottom, right, top, width: weight, colour)
        case 2:
          strokeLine(left, (top + bottom) / 2, right, (top + bottom) / 2, width: weight, colour)
        case 3:
          strokeCircle(
            (left + right) / 2,
            (top + bottom) / 2 + 1,
            (right - left) / 2,
            width: weight,
            colour
          )
        default: strokeLine(right, top, right, bottom, width: weight, colour)
        }
      }
      pen += advance
    }
    return pen
  }

  func image(_ name: String, kind: String) -> CorpusImage {
    CorpusImage(name: name, kind: kind, width: width, height: height, rgba: rgba)
  }
}

/// The corpus, in a fixed order. About 7 million pixels in all.
func referenceCorpus() -> [CorpusImage] {
  [
    settingsList(dark: false), settingsList(dark: true), loginForm(), dashboard(), lineChart(),
    barChart(), pieChart(), scatterPlot(), textDocument(), codeEditor(), appIcon(side: 64),
    gradientIcon(side: 128), shadowedIcon(side: 256), toolbarGlyphs(), badge(), grayScan(),
    photoGradient(), skyGradient(), spreadsheet(), map(), avatarList(), desktopWindow(), qrCode(),
    spinner(),
  ]
}

// MARK: Interfaces

func settingsList(dark: Bool) -> CorpusImage {
  let background = dark ? Colour(0, 0, 0) : Colour(242, 242, 247)
  let cell = dark ? Colour(28, 28, 30) : Colour.white
  let label = dark ? Colour.white : Colour.black
  let secondary = dark ? Colour(142, 142, 147) : Colour(138, 138, 142)
  let separator = dark ? Colour(56, 56, 58) : Colour(198, 198, 200)
  var canvas = Canvas(width: 390, height: 844, background: background)
  canvas.fillRect(0, 0, 390, 96, dark ? Colour(18, 18, 18) : Colour(249, 249, 249))
  canvas.text(16, 56, characters: 8, size: 26, label, seed: 1, weight: 2.2)
  let iconColours = [
    Colour(255, 149, 0), Colour(0, 122, 255), Colour(52, 199, 89), Colour(255, 59, 48),
    Colour(88, 86, 214), Colour(142, 142, 147), Colour(255, 204, 0),
  ]
  var y: Float = 120
  var seed: UInt64 = 10
  for group in 0..<4 {
    let rows = [3, 4, 2, 5][group]
    canvas.fillRoundedRect(16, y, 358, Float(rows * 44), radius: 10, cell)
    for row in 0..<rows {
      let top = y + Float(row * 44)
      canvas.fillRoundedRect(32, top + 8, 28, 28, radius: 6, iconColours[(group + row) % 7])
      canvas.text(38, top + 15, characters: 2, size: 14, .white, seed: seed, weight: 1.6)
      canvas.text(72, top + 14, characters: 10 + row * 3, size: 16, label, seed: seed + 1)
      canvas.strokeLine(356, top + 17, 361, top + 22, width: 1.8, secondary)
      canvas.strokeLine(361, top + 22, 356, top + 27, width: 1.8, secondary)
      if row == 1 {
        canvas.fillRoundedRect(290, top + 6, 51, 31, radius: 15.5, Colour(52, 199, 89))
        canvas.fillCircle(325, top + 21.5, 13.5, .white)
      }
      if row < rows - 1 { canvas.fillRect(72, Int(top) + 43, 302, 1, separator) }
      seed += 2
    }
    y += Float(rows * 44) + 36
  }
  canvas.fillRect(0, 760, 390, 84, dark ? Colour(22, 22, 22) : Colour(249, 249, 249))
  for tab in 0..<4 {
    let centre = Float(49 + tab * 97)
    canvas.fillRoundedRect(
      centre - 12,
      772,
      24,
      24,
      radius: 5,
      tab == 1 ? iconColours[1] : secondary
    )
    canvas.text(
      centre - 18,
      802,
      characters: 5,
      size: 10,
      tab == 1 ? iconColours[1] : secondary,
      seed: 90 + UInt64(tab)
    )
  }
  return canvas.image(dark ? "settings-list-dark" : "settings-list", kind: "UI, flat colours")
}

func loginForm() -> CorpusImage {
  var canvas = Canvas(width: 375, height: 667, background: .white)
  canvas.fillCircle(187.5, 120, 40, Colour(0, 122, 255))
  canvas.text(165, 105, characters: 2, size: 30, .white, seed: 3, weight: 3)
  canvas.text(110, 190, characters: 12, size: 24, .black, seed: 4, weight: 2)
  for (index, top) in [260, 330].enumerated() {
    canvas.fillRoundedRect(24, Float(top), 327, 48, radius: 8, Colour(209, 209, 214))
    canvas.fillRoundedRect(25, Float(top + 1), 325, 46, radius: 7, Colour(250, 250, 250))
    canvas.text(
      40,
      Float(top + 16),
      characters: 9 + index * 4,
      size: 16,
      Colour(160, 160, 165),
      seed: 5 + UInt64(index)
    )
  }
  canvas.fillRoundedRect(24, 410, 327, 50, radius: 10, Colour(0, 122, 255))
  canvas.text(150, 427, characters: 7, size: 17, .white, seed: 8, weight: 1.8)
  canvas.text(110, 490, characters: 18, size: 14, Colour(0, 122, 255), seed: 9)
  canvas.text(70, 620, characters: 30, size: 12, Colour(142, 142, 147), seed: 11)
  return canvas.image("login-form", kind: "UI, flat colours")
}

func dashboard() -> CorpusImage {
  var canvas = Canvas(width: 1280, height: 800, background: Colour(245, 246, 250))
  canvas.fillRect(0, 0, 220, 800, Colour(30, 41, 59))
  for item in 0..<9 {
    let y = Float(90 + item * 44)
    if item == 2 { canvas.fillRoundedRect(12, y - 10, 196, 36, radius: 6, Colour(51, 65, 85)) }
    canvas.fillRoundedRect(28, y, 16, 16, radius: 3, Colour(148, 163, 184))
    canvas.text(
      56,
      y,
      characters: 8 + item % 4 * 2,
      size: 14,
      Colour(226, 232, 240),
      seed: 20 + UInt64(item)
    )
  }
  canvas.text(250, 30, characters: 14, size: 24, Colour(15, 23, 42), seed: 40, weight: 2)
  let accents = [
    Colour(59, 130, 246), Colour(16, 185, 129), Colour(245, 158, 11), Colour(239, 68, 68),
  ]
  for card in 0..<4 {
    let x = Float(250 + card * 252)
    canvas.fillRoundedRect(x, 80, 236, 120, radius: 12, .white)
    canvas.text(
      x + 20,
      100,
      characters: 10,
      size: 13,
      Colour(100, 116, 139),
      seed: 50 + UInt64(card)
    )
    canvas.text(
      x + 20,
      130,
      characters: 6,
      size: 28,
      Colour(15, 23, 42),
      seed: 60 + UInt64(card),
      weight: 2.4
    )
    canvas.fillRoundedRect(x + 20, 176, 196, 6, radius: 3, Colour(226, 232, 240))
    canvas.fillRoundedRect(x + 20, 176, Float(60 + card * 40), 6, radius: 3, accents[card])
  }
  canvas.fillRoundedRect(250, 220, 640, 340, radius: 12, .white)
  var generator = SeededGenerator(seed: 77)
  for series in 0..<2 {
    var previous: (Float, Float)?
    for step in 0...24 {
      let x = 280 + Float(step) * 24
      let y = 480 - Float(step) * 4 - Float(generator.below(60)) - Float(series * 50)
      if let previous {
        canvas.strokeLine(previous.0, previous.1, x, y, width: 2.5, accents[series])
      }
      previous = (x, y)
    }
  }
  canvas.fillRoundedRect(910, 220, 340, 340, radius: 12, .white)
  for bar in 0..<8 {
    let h = Float(40 + generator.below(220))
    canvas.fillRoundedRect(935 + Float(bar) * 38, 530 - h, 24, h, radius: 4, accents[bar % 4])
  }
  canvas.fillRoundedRect(250, 580, 1000, 200, radius: 12, .white)
  for row in 0..<5 {
    let y = 600 + row * 36
    canvas.text(
      270,
      Float(y + 8),
      characters: 16,
      size: 13,
      Colour(51, 65, 85),
      seed: 100 + UInt64(row)
    )
    canvas.text(
      620,
      Float(y + 8),
      characters: 9,
      size: 13,
      Colour(51, 65, 85),
      seed: 110 + UInt64(row)
    )
    canvas.fillRoundedRect(1100, Float(y + 6), 70, 20, radius: 10, accents[row % 4])
    if row < 4 { canvas.fillRect(270, y + 35, 960, 1, Colour(241, 245, 249)) }
  }
  return canvas.image("dashboard", kind: "UI, charts")
}

func spreadsheet() -> CorpusImage {
  var canvas = Canvas(width: 1024, height: 768, background: .white)
  canvas.fillRect(0, 0, 1024, 28, Colour(243, 243, 243))
  canvas.fillRect(0, 0, 48, 768, Colour(243, 243, 243))
  for column in 0..<10 {
    let x = 48 + column * 98
    canvas.fillRect(x, 0, 1, 768, Colour(218, 220, 224))
    canvas.text(
      Float(x + 44),
      8,
      characters: 1,
      size: 12,
      Colour(95, 99, 104),
      seed: UInt64(column)
    )
  }
  for row in 0..<36 {
    let y = 28 + row * 21
    canvas.fillRect(0, y, 1024, 1, Colour(218, 220, 224))
    canvas.text(
      18,
      Float(y + 5),
      characters: row < 9 ? 1 : 2,
      size: 11,
      Colour(95, 99, 104),
      seed: 500 + UInt64(row)
    )
    for column in 0..<10 where (row * 7 + column * 3) % 5 != 0 {
      canvas.text(
        Float(52 + column * 98),
        Float(y + 5),
        characters: 3 + (row + column) % 8,
        size: 11,
        .black,
        seed: UInt64(row * 10 + column)
      )
    }
  }
  canvas.fillRect(146, 70, 98, 21, Colour(26, 115, 232, 40))
  canvas.fillRect(146, 70, 98, 2, Colour(26, 115, 232))
  return canvas.image("spreadsheet", kind: "UI, text")
}

func avatarList() -> CorpusImage {
  var canvas = Canvas(width: 390, height: 600, background: .white)
  var generator = SeededGenerator(seed: 123)
  for row in 0..<9 {
    let y = Float(row * 66)
    // A photo inside a circle: a smooth face-like blob of skin and hair tones with noise.
    let cx: Float = 40
    let cy = y + 33
    for py in Int(cy - 25)...Int(cy + 25) {
      for px in Int(cx - 25)...Int(cx + 25) {
        let dx = Float(px) + 0.5 - cx
        let dy = Float(py) + 0.5 - cy
        let coverage = 25.5 - (dx * dx + dy * dy).squareRoot()
        guard coverage > 0 else { continue }
        let hair = dy < -8 + 4 * sin(dx / 5)
        let shade = Float(row * 13 % 40) + 6 * generator.unit()
        let colour =
          hair
          ? Colour(UInt8(60 + shade), UInt8(40 + shade / 2), UInt8(30 + shade / 3))
          : Colour(
            UInt8(200 + shade / 2 + dy / 2),
            UInt8(160 + shade / 2 + dy / 2),
            UInt8(130 + shade / 3)
          )
        canvas.blend(px, py, colour, coverage: coverage)
      }
    }
    canvas.text(
      80,
      y + 16,
      characters: 12 + row % 5,
      size: 16,
      .black,
      seed: 200 + UInt64(row),
      weight: 1.5
    )
    canvas.text(
      80,
      y + 40,
      characters: 24,
      size: 13,
      Colour(120, 120, 128),
      seed: 300 + UInt64(row)
    )
    canvas.fillRect(80, Int(y) + 65, 310, 1, Colour(229, 229, 234))
  }
  return canvas.image("avatar-list", kind: "UI, photos")
}

func desktopWindow() -> CorpusImage {
  var canvas = Canvas(width: 1440, height: 900, background: Colour(58, 110, 165))
  // A wallpaper gradient behind a window.
  for y in 0..<900 {
    for x in 0..<1440 {
      let t = Float(x + y) / 2340
      canvas.set(x, y, Colour(UInt8(40 + 60 * t), UInt8(90 + 50 * t), UInt8(160 - 40 * t)))
    }
  }
  canvas.fillRoundedRect(100, 60, 1240, 780, radius: 10, Colour(0, 0, 0, 60))
  canvas.fillRoundedRect(96, 52, 1240, 780, radius: 10, Colour(236, 236, 236))
  canvas.fillRect(96, 90, 1240, 742, .white)
  for (index, colour) in [Colour(255, 95, 86), Colour(255, 189, 46), Colour(39, 201, 63)]
    .enumerated()
  {
    canvas.fillCircle(118 + Float(index) * 20, 71, 6, colour)
  }
  canvas.text(640, 64, characters: 14, size: 13, Colour(77, 77, 77), seed: 900)
  canvas.fillRect(96, 90, 220, 742, Colour(246, 246, 246))
  for item in 0..<14 {
    canvas.fillRoundedRect(112, Float(106 + item * 28), 14, 14, radius: 3, Colour(0, 122, 255))
    canvas.text(
      134,
      Float(106 + item * 28),
      characters: 10 + item % 6,
      size: 13,
      Colour(40, 40, 40),
      seed: 910 + UInt64(item)
    )
  }
  for line in 0..<30 {
    canvas.text(
      340,
      Float(110 + line * 22),
      characters: 60 + line * 7 % 40,
      size: 14,
      Colour(30, 30, 30),
      seed: 1000 + UInt64(line)
    )
  }
  return canvas.image("desktop-window", kind: "UI, gradient wallpaper")
}

// MARK: Text

func textDocument() -> CorpusImage {
  var canvas = Canvas(width: 800, height: 1000, background: .white)
  canvas.text(60, 50, characters: 22, size: 30, .black, seed: 2000, weight: 2.6)
  var y: Float = 110
  for paragraph in 0..<8 {
    for line in 0..<(4 + paragraph % 3) {
      let characters = line == 3 + paragraph % 3 ? 40 : 78
      canvas.text(
        60,
        y,
        characters: characters,
        size: 15,
        Colour(34, 34, 34),
        seed: 2100 + UInt64(paragraph * 10 + line)
      )
      y += 22
    }
    y += 18
  }
  return canvas.image("text-document", kind: "text, gray")
}

func codeEditor() -> CorpusImage {
  var canvas = Canvas(width: 900, height: 600, background: Colour(30, 30, 30))
  canvas.fillRect(0, 0, 52, 600, Colour(37, 37, 38))
  let tokens = [
    Colour(86, 156, 214), Colour(206, 145, 120), Colour(78, 201, 176), Colour(220, 220, 170),
    Colour(212, 212, 212), Colour(106, 153, 85), Colour(197, 134, 192),
  ]
  var generator = SeededGenerator(seed: 3000)
  for line in 0..<30 {
    let y = Float(8 + line * 19)
    canvas.text(
      14,
      y,
      characters: line < 9 ? 1 : 2,
      size: 12,
      Colour(133, 133, 133),
      seed: 3100 + UInt64(line)
    )
    var x = Float(64 + (line % 5) * 16)
    for word in 0..<(2 + generator.below(6)) {
      x =
        canvas.text(
          x,
          y,
          characters: 2 + generator.below(8),
          size: 13,
          tokens[generator.below(tokens.count)],
          seed: 3200 + UInt64(line * 20 + word)
        ) + 8
    }
  }
  canvas.fillRect(64, 8 + 12 * 19 - 2, 836, 19, Colour(255, 255, 255, 15))
  return canvas.image("code-editor", kind: "text, dark, colours")
}

func grayScan() -> CorpusImage {
  var canvas = Canvas(width: 850, height: 1100, background: Colour(236, 236, 236))
  var y: Float = 80
  for line in 0..<38 {
    canvas.text(
      70,
      y,
      characters: line % 9 == 8 ? 30 : 70,
      size: 14,
      Colour(40, 40, 40),
      seed: 4000 + UInt64(line)
    )
    y += 26
  }
  // Paper grain and scanner noise, brighter in the middle, all in gray.
  var generator = SeededGenerator(seed: 4100)
  for row in 0..<canvas.height {
    for column in 0..<canvas.width {
      let offset = (row * canvas.width + column) * 4
      let dx = Float(column - 425) / 425
      let dy = Float(row - 550) / 550
      let vignette = -10 * (dx * dx + dy * dy)
      let noise = 3 * (generator.unit() + generator.unit() + generator.unit())
      let value = UInt8(max(0, min(255, Float(canvas.rgba[offset]) + vignette + noise)))
      canvas.rgba[offset] = value
      canvas.rgba[offset + 1] = value
      canvas.rgba[offset + 2] = value
    }
  }
  return canvas.image("gray-scan", kind: "gray scan with noise")
}

// MARK: Charts

func lineChart() -> CorpusImage {
  var canvas = Canvas(width: 800, height: 480, background: .white)
  for line in 0...5 {
    let y = 40 + line * 76
    canvas.fillRect(60, y, 710, 1, Colour(230, 230, 230))
    canvas.text(
      20,
      Float(y - 6),
      characters: 3,
      size: 11,
      Colour(110, 110, 110),
      seed: 5000 + UInt64(line)
    )
  }
  canvas.fillRect(60, 420, 710, 1, Colour(120, 120, 120))
  let colours = [Colour(31, 119, 180), Colour(255, 127, 14), Colour(44, 160, 44)]
  for series in 0..<3 {
    var previous: (Float, Float)?
    for step in 0...70 {
      let x = 60 + Float(step) * 10
      let y =
        230 - 120 * sin(Float(step) / Float(8 + series * 3) + Float(series)) + Float(series * 30)
      if let previous { canvas.strokeLine(previous.0, previous.1, x, y, width: 2, colours[series]) }
      previous = (x, y)
    }
  }
  for label in 0..<8 {
    canvas.text(
      Float(60 + label * 95),
      432,
      characters: 4,
      size: 11,
      Colour(110, 110, 110),
      seed: 5100 + UInt64(label)
    )
  }
  return canvas.image("line-chart", kind: "chart, anti-aliased lines")
}

func barChart() -> CorpusImage {
  var canvas = Canvas(width: 640, height: 400, background: Colour(250, 250, 250))
  let colours = [Colour(78, 121, 167), Colour(242, 142, 43)]
  for group in 0..<8 {
    for series in 0..<2 {
      let h = 40 + (group * 37 + series * 53) % 260
      canvas.fillRect(50 + group * 72 + series * 26, 340 - h, 24, h, colours[series])
    }
    canvas.text(
      Float(54 + group * 72),
      350,
      characters: 3,
      size: 11,
      Colour(80, 80, 80),
      seed: 6000 + UInt64(group)
    )
  }
  canvas.fillRect(40, 340, 580, 2, Colour(60, 60, 60))
  canvas.text(200, 370, characters: 20, size: 13, Colour(60, 60, 60), seed: 6100)
  return canvas.image("bar-chart", kind: "chart, flat colours")
}

func pieChart() -> CorpusImage {
  var canvas = Canvas(width: 400, height: 400, background: .white)
  let colours = [
    Colour(230, 25, 75), Colour(60, 180, 75), Colour(255, 225, 25), Colour(0, 130, 200),
    Colour(245, 130, 48),
  ]
  let shares: [Float] = [0.3, 0.25, 0.2, 0.15, 0.1]
  let cx: Float = 200
  let cy: Float = 200
  for row in 40..<360 {
    for column in 40..<360 {
      let dx = Float(column) + 0.5 - cx
      let dy = Float(row) + 0.5 - cy
      let coverage = 150.5 - (dx * dx + dy * dy).squareRoot()
      guard coverage > 0 else { continue }
      var angle = atan2(dy, dx) / (2 * Float.pi)
      if angle < 0 { angle += 1 }
      var total: Float = 0
      var slice = 0
      for (index, share) in shares.enumerated() {
        total += share
        if angle < total {
          slice = index
          break
        }
      }
      canvas.blend(column, row, colours[slice], coverage: coverage)
    }
  }
  var angle: Float = 0
  for share in shares {
    canvas.strokeLine(
      cx,
      cy,
      cx + 151 * cos(angle * 2 * .pi),
      cy + 151 * sin(angle * 2 * .pi),
      width: 2,
      .white
    )
    angle += share
  }
  return canvas.image("pie-chart", kind: "chart, anti-aliased edges")
}

func scatterPlot() -> CorpusImage {
  var canvas = Canvas(width: 600, height: 600, background: .white)
  canvas.fillRect(50, 550, 520, 1, .black)
  canvas.fillRect(50, 30, 1, 520, .black)
  var generator = SeededGenerator(seed: 7000)
  for point in 0..<400 {
    let x = 60 + Float(generator.below(500))
    let y = 540 - (x - 60) * 0.8 - Float(generator.below(120))
    canvas.fillCircle(
      x,
      y,
      4,
      point % 2 == 0 ? Colour(31, 119, 180, 150) : Colour(214, 39, 40, 150)
    )
  }
  return canvas.image("scatter-plot", kind: "chart, translucent dots")
}

// MARK: Icons with alpha

func appIcon(side: Int) -> CorpusImage {
  var canvas = Canvas(width: side, height: side, background: .clear)
  let s = Float(side)
  canvas.fillRoundedRect(0, 0, s, s, radius: s * 0.22, Colour(255, 59, 48))
  canvas.fillCircle(s / 2, s / 2, s * 0.28, .white)
  canvas.strokeLine(s * 0.5, s * 0.34, s * 0.5, s * 0.52, width: s * 0.06, Colour(255, 59, 48))
  canvas.strokeLine(s * 0.5, s * 0.52, s * 0.62, s * 0.6, width: s * 0.06, Colour(255, 59, 48))
  return canvas.image("app-icon-\(side)", kind: "icon with alpha")
}

func gradientIcon(side: Int) -> CorpusImage {
  var canvas = Canvas(width: side, height: side, background: .clear)
  let s = Float(side)
  for row in 0..<side {
    for column in 0..<side {
      let dx = Float(column) + 0.5 - s / 2
      let dy = Float(row) + 0.5 - s / 2
      let coverage = s / 2 - 2 - (dx * dx + dy * dy).squareRoot() + 0.5
      guard coverage > 0 else { continue }
      let t = Float(row) / s
      canvas.blend(
        column,
        row,
        Colour(UInt8(90 + 120 * t), UInt8(200 - 100 * t), 255),
        coverage: coverage
      )
    }
  }
  canvas.fillRoundedRect(
    s * 0.3,
    s * 0.3,
    s * 0.4,
    s * 0.4,
    radius: s * 0.06,
    Colour(255, 255, 255, 220)
  )
  return canvas.image("gradient-icon-\(side)", kind: "icon with alpha, gradient")
}

func shadowedIcon(side: Int) -> CorpusImage {
  var canvas = Canvas(width: side, height: side, background: .clear)
  let s = Float(side)
  // A soft shadow: alpha falling off with the distance to a rounded square.
  for row in 0..<side {
    for column in 0..<side {
      let qx = abs(Float(column) + 0.5 - s / 2) - s * 0.3
      let qy = abs(Float(row) + 0.5 - s * 0.54) - s * 0.3
      let distance = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
      let alpha = max(0, 90 - distance * 6)
      if alpha > 0 { canvas.set(column, row, Colour(0, 0, 0, UInt8(alpha))) }
    }
  }
  canvas.fillRoundedRect(s * 0.2, s * 0.18, s * 0.6, s * 0.6, radius: s * 0.12, Colour(52, 199, 89))
  canvas.text(s * 0.32, s * 0.36, characters: 2, size: s * 0.25, .white, seed: 8000, weight: s / 40)
  return canvas.image("shadowed-icon-\(side)", kind: "icon with alpha, soft shadow")
}

func toolbarGlyphs() -> CorpusImage {
  var canvas = Canvas(width: 240, height: 48, background: .clear)
  let ink = Colour(60, 60, 67)
  for glyph in 0..<5 {
    let x = Float(glyph * 48)
    switch glyph {
    case 0:
      canvas.strokeCircle(x + 22, 22, 10, width: 2.5, ink)
      canvas.strokeLine(x + 29, 29, x + 38, 38, width: 2.5, ink)
    case 1:
      for bar in 0..<3 {
        canvas.strokeLine(
          x + 12,
          Float(14 + bar * 10),
          x + 36,
          Float(14 + bar * 10),
          width: 2.5,
          ink
        )
      }
    case 2:
      canvas.strokeLine(x + 24, 10, x + 24, 38, width: 2.5, ink)
      canvas.strokeLine(x + 10, 24, x + 38, 24, width: 2.5, ink)
    case 3:
      canvas.strokeLine(x + 12, 30, x + 24, 14, width: 2.5, ink)
      canvas.strokeLine(x + 24, 14, x + 36, 30, width: 2.5, ink)
    default:
      canvas.fillCircle(x + 24, 24, 12, ink)
      canvas.fillCircle(x + 24, 24, 7, Colour(255, 255, 255))
    }
  }
  return canvas.image("toolbar-glyphs", kind: "icons with alpha, one colour")
}

func badge() -> CorpusImage {
  var canvas = Canvas(width: 24, height: 16, background: .clear)
  canvas.fillRoundedRect(0, 0, 24, 16, radius: 8, Colour(255, 59, 48))
  canvas.text(7, 3, characters: 2, size: 10, .white, seed: 8100, weight: 1.4)
  return canvas.image("badge-24x16", kind: "icon with alpha, tiny")
}

func spinner() -> CorpusImage {
  var canvas = Canvas(width: 96, height: 96, background: .clear)
  for step in 0..<12 {
    let angle = Float(step) / 12 * 2 * .pi
    let alpha = UInt8(40 + step * 18)
    canvas.strokeLine(
      48 + 20 * cos(angle),
      48 + 20 * sin(angle),
      48 + 38 * cos(angle),
      48 + 38 * sin(angle),
      width: 7,
      Colour(100, 100, 110, alpha)
    )
  }
  return canvas.image("spinner", kind: "icon with alpha, translucent strokes")
}

// MARK: Photo-like and others

func photoGradient() -> CorpusImage {
  var canvas = Canvas(width: 640, height: 480, background: .black)
  var generator = SeededGenerator(seed: 9000)
  for row in 0..<480 {
    for column in 0..<640 {
      let x = Float(column) / 640
      let y = Float(row) / 480
      let noise = 2 * generator.unit()
      let red = 120 + 90 * sin(3 * x + 1) * cos(2 * y) + noise
      let green = 110 + 80 * sin(2 * y + x) + noise
      let blue = 140 + 100 * cos(4 * x * y) + noise
      canvas.set(
        column,
        row,
        Colour(
          UInt8(max(0, min(255, red))),
          UInt8(max(0, min(255, green))),
          UInt8(max(0, min(255, blue)))
        )
      )
    }
  }
  return canvas.image("photo-gradient", kind: "photo-like gradient with noise")
}

func skyGradient() -> CorpusImage {
  var canvas = Canvas(width: 512, height: 512, background: .black)
  for row in 0..<512 {
    let t = Float(row) / 511
    for column in 0..<512 {
      canvas.set(column, row, Colour(UInt8(70 + 150 * t), UInt8(130 + 90 * t), UInt8(220 + 25 * t)))
    }
  }
  canvas.fillCircle(380, 120, 40, Colour(255, 250, 230))
  return canvas.image("sky-gradient", kind: "smooth gradient")
}

func map() -> CorpusImage {
  var canvas = Canvas(width: 512, height: 512, background: Colour(242, 239, 233))
  canvas.fillRect(0, 300, 512, 212, Colour(170, 211, 223))
  canvas.fillRect(60, 40, 140, 120, Colour(200, 230, 190))
  var generator = SeededGenerator(seed: 9500)
  for _ in 0..<14 {
    let x0 = Float(generator.below(512))
    let y0 = Float(generator.below(300))
    let x1 = Float(generator.below(512))
    let y1 = Float(generator.below(300))
    canvas.strokeLine(x0, y0, x1, y1, width: 7, Colour(255, 255, 255))
    canvas.strokeLine(x0, y0, x1, y1, width: 4, Colour(252, 214, 164))
  }
  for label in 0..<6 {
    canvas.text(
      Float(40 + label * 75),
      Float(60 + label * 37),
      characters: 7,
      size: 11,
      Colour(80, 80, 80),
      seed: 9600 + UInt64(label)
    )
  }
  return canvas.image("map", kind: "map, roads and labels")
}

func qrCode() -> CorpusImage {
  var canvas = Canvas(width: 290, height: 290, background: .white)
  var generator = SeededGenerator(seed: 9900)
  for row in 0..<29 {
    for column in 0..<29 {
      let finder =
        (row < 7 || row > 21) && (column < 7 || column > 21) && !(row > 21 && column > 21)
      let dark: Bool
      if finder {
        let r = row > 21 ? row - 22 : row
        let c = column > 21 ? column - 22 : column
        dark = r == 0 || r == 6 || c == 0 || c == 6 || (r >= 2 && r <= 4 && c >= 2 && c <= 4)
      } else {
        dark = generator.below(2) == 0
      }
      if dark { canvas.fillRect(column * 10, row * 10, 10, 10, .black) }
    }
  }
  return canvas.image("qr-code", kind: "black and white")
}
