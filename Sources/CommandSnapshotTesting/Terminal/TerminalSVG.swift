/// Renders terminal output into an SVG image of an 80-column terminal.
///
/// The output is drawn on a ``TerminalScreen`` of 80 columns and 24 rows, so the image shows what
/// such a terminal would show: a progress line redrawn with `\r` or `\r ESC[K` shows its last
/// state, cursor moves and erases act on the screen. Rows that scroll off the top are kept
/// above it: the image holds everything the program printed, with the redraws of the final
/// screen applied. Text is laid out in cells of a fixed monospace grid (8.4 × 18 pixels at 14
/// pixels, the advance of common monospace fonts); a wide character takes two cells. Every row
/// that scrolls off the screen is written at once, so the work and memory are linear in the
/// output.
struct TerminalSVG {
  static let columns = 80
  static let screenHeight = 24
  /// Cell width in tenths of a pixel, so coordinates are exact decimals.
  static let cellWidthTenths = 84
  static let rowHeight = 18
  static let padding = 10
  static let fontSize = 14

  private typealias Cell = TerminalScreen.Cell

  private var body = ""
  private var rowCount = 0
  private var screen = TerminalScreen(columns: columns, height: screenHeight)
  private var decoder = UTF8StreamDecoder()

  /// Adds a line that is not the program's output (the prompt, the exit status), in grey, on
  /// the row after everything drawn so far.
  mutating func addAnnotation(_ line: String) {
    screen.writeAnnotation(line.unicodeScalars)
    writeScrolledOutRows()
  }

  /// Adds output bytes: text, SGR sequences that change the style of what follows, and the
  /// sequences that move the cursor and erase.
  mutating func addOutput(_ bytes: [UInt8]) {
    EscapeSequenceScanner.scan(
      bytes.span,
      text: { range in
        var scalars: [Unicode.Scalar] = []
        decoder.decode(bytes[range]) { scalars.append($0) }
        screen.write(scalars)
      },
      sgr: { screen.style.apply($0) },
      control: { screen.control($0, $1) },
      shortEscape: { screen.escape($0) }
    )
    // A partial character at the very end of the output is shown as U+FFFD.
    if decoder.hasPendingBytes {
      decoder = UTF8StreamDecoder()
      screen.write(["\u{FFFD}"])
    }
    screen.style = .plain
    writeScrolledOutRows()
  }

  /// The finished document.
  func document() -> String {
    var copy = self
    for row in copy.screen.rows.prefix(copy.screen.usedRowCount) { copy.writeRow(row) }
    let rows = max(copy.rowCount, 1)
    let width =
      (Self.padding * 2 * 10 + Self.columns * Self.cellWidthTenths + 9) / 10
    let height = Self.padding * 2 + rows * Self.rowHeight
    return """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" font-family="'DejaVu Sans Mono', Menlo, Consolas, \
      monospace" font-size="\(Self.fontSize)">
      <rect width="\(width)" height="\(height)" fill="\(TerminalPalette.background)"/>
      <g xml:space="preserve" style="white-space: pre">

      """ + copy.body + "</g>\n</svg>\n"
  }

  private mutating func writeScrolledOutRows() {
    for row in screen.scrolledOut { writeRow(row) }
    screen.scrolledOut.removeAll()
  }

  /// Writes the row's runs of equal style as a background `rect` (when it has one) and a `text`.
  private mutating func writeRow(_ row: TerminalScreen.Row) {
    let baseline = Self.padding + rowCount * Self.rowHeight + Self.fontSize
    let top = Self.padding + rowCount * Self.rowHeight
    let cells = row.cells
    var start = 0
    while start < cells.count {
      var end = start + 1
      while end < cells.count, cells[end].style == cells[start].style { end += 1 }
      writeRun(
        cells[start..<end],
        column: start,
        baseline: baseline,
        top: top,
        annotation: row.annotation
      )
      start = end
    }
    rowCount += 1
  }

  private mutating func writeRun(
    _ cells: ArraySlice<Cell>,
    column: Int,
    baseline: Int,
    top: Int,
    annotation: Bool
  ) {
    let style = cells.first?.style ?? .plain
    var foreground = style.foreground.map(TerminalPalette.hex)
    var background = style.background.map(TerminalPalette.hex)
    if style.inverse {
      (foreground, background) = (
        background ?? TerminalPalette.background, foreground ?? TerminalPalette.foreground
      )
    }
    let x = Self.decimal(Self.padding * 10 + column * Self.cellWidthTenths)
    let length = Self.decimal(cells.count * Self.cellWidthTenths)
    if let background {
      body += "<rect x=\"\(x)\" y=\"\(top)\" width=\"\(length)\" height=\"\(Self.rowHeight)\" "
      body += "fill=\"\(background)\"/>\n"
    }
    let isBlank = cells.allSatisfy { $0.scalar == " " && $0.joined.isEmpty }
    if isBlank && !style.underline { return }
    let fill =
      annotation ? TerminalPalette.annotation : (foreground ?? TerminalPalette.foreground)
    body += "<text x=\"\(x)\" y=\"\(baseline)\" textLength=\"\(length)\" fill=\"\(fill)\""
    if style.bold { body += " font-weight=\"bold\"" }
    if style.italic { body += " font-style=\"italic\"" }
    if style.underline { body += " text-decoration=\"underline\"" }
    body += ">"
    for cell in cells where cell.width > 0 {
      Self.appendEscaped(cell.scalar, to: &body)
      for scalar in cell.joined { Self.appendEscaped(scalar, to: &body) }
    }
    body += "</text>\n"
  }

  /// Text safe inside an XML element: `&`, `<` and `>` as entities.
  private static func appendEscaped(_ scalar: Unicode.Scalar, to text: inout String) {
    switch scalar {
    case "&": text += "&amp;"
    case "<": text += "&lt;"
    case ">": text += "&gt;"
    // Not allowed in XML 1.0 documents at all.
    case "\u{FFFE}", "\u{FFFF}": text += "\u{FFFD}"
    default: text.unicodeScalars.append(scalar)
    }
  }

  /// Tenths as a decimal: `84` is `8.4`, `100` is `10`.
  private static func decimal(_ tenths: Int) -> String {
    tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
  }
}

/// Decodes UTF-8 that arrives in pieces (a character may be split between two runs of text
/// around an escape sequence); an invalid byte becomes U+FFFD.
struct UTF8StreamDecoder {
  private var pending: [UInt8] = []

  var hasPendingBytes: Bool { !pending.isEmpty }

  mutating func decode(_ piece: ArraySlice<UInt8>, into emit: (Unicode.Scalar) -> Void) {
    // Offsets from 0 in `bytes`; the slice's own indices start elsewhere.
    let bytes = piece.span
    let base = piece.startIndex
    var start = 0
    if !pending.isEmpty {
      // Complete the pending character with at most three more bytes, then go on.
      while start < bytes.count, start < 3, (bytes[start] & 0xC0) == 0x80,
        pending.count < expectedLength(pending[0])
      {
        pending.append(bytes[start])
        start += 1
      }
      if pending.count < expectedLength(pending[0]) && start == bytes.count { return }
      decodeComplete(pending, into: emit)
      pending.removeAll()
    }
    // Keep an incomplete character at the end for the next piece.
    var end = bytes.count
    var back = bytes.count - 1
    while back >= start, back >= bytes.count - 3, (bytes[back] & 0xC0) == 0x80 { back -= 1 }
    if back >= start, bytes[back] >= 0xC0, back + expectedLength(bytes[back]) > bytes.count {
      end = back
    }
    decodeComplete(Array(piece[(base + start)..<(base + end)]), into: emit)
    pending.append(contentsOf: piece[(base + end)...])
  }

  private func expectedLength(_ lead: UInt8) -> Int {
    switch lead {
    case 0xC0...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF7: 4
    default: 1
    }
  }

  private func decodeComplete(_ bytes: [UInt8], into emit: (Unicode.Scalar) -> Void) {
    var iterator = bytes.makeIterator()
    var codec = UTF8()
    while true {
      switch codec.decode(&iterator) {
      case .scalarValue(let scalar): emit(scalar)
      case .error: emit("\u{FFFD}")
      case .emptyInput: return
      }
    }
  }
}
