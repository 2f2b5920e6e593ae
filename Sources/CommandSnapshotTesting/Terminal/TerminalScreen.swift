/// The screen of a terminal of a given size, as the program's output leaves it.
///
/// It draws what terminals draw for the sequences programs use for progress and redraws:
/// carriage return, backspace, tab stops every eight columns, line feed (as a terminal's
/// `onlcr` turns it into a new line), cursor moves (CSI `A` `B` `C` `D` `E` `F` `G` `H` `f` `d`),
/// erase in line and in display (CSI `K`, `J`, `X`), deleting and inserting characters (CSI `P`,
/// `@`), saving and restoring the cursor with its style (`ESC 7`/`ESC 8`, CSI `s`/`u`), SGR styles
/// kept per cell, wrapping at the last column (a character written there waits for the next one
/// to wrap, as xterm does) and scrolling when output passes the bottom. Characters take their
/// terminal width (``TerminalWidthTable``): wide ones two cells, combining marks and variation
/// selectors join the character before them, and so does whatever follows a zero-width joiner.
///
/// Rows scrolled off the top are kept, in order, in ``scrolledOut`` (the owner takes them):
/// cursor moves reach only the rows of the screen, as in a terminal, but nothing the program
/// printed is lost. Other sequences (scroll regions, the alternate screen) are ignored.
///
/// - Complexity: O(*n*) in the output, with O(`columns` × `height`) for the screen.
struct TerminalScreen {
  struct Cell: Equatable {
    /// The first scalar of the character; a space for a blank cell.
    var scalar: Unicode.Scalar
    /// The scalars joined to it (combining marks, a zero-width joiner and what follows it).
    var joined: [Unicode.Scalar] = []
    var style: TerminalStyle
    /// 1, 2 for the first cell of a wide character, 0 for its second cell.
    var width: UInt8 = 1

    static let blank = Cell(scalar: " ", style: .plain)

    /// The text drawn in the cell: nothing for the second cell of a wide character.
    var text: String {
      guard width > 0 else { return "" }
      var text = String(Character(scalar))
      text.unicodeScalars.append(contentsOf: joined)
      return text
    }
  }

  struct Row: Equatable {
    var cells: [Cell] = []
    /// Written by the package (the command line, the exit status), not by the program.
    var annotation = false

    /// The row's text, without trailing spaces.
    var text: String {
      var text = cells.map(\.text).joined()
      while text.hasSuffix(" ") { text.removeLast() }
      return text
    }
  }

  let columns: Int
  let height: Int
  /// The screen's rows from the top; rows below the last one reached do not exist yet.
  private(set) var rows: [Row] = [Row()]
  /// Rows scrolled off the top, oldest first.
  var scrolledOut: [Row] = []
  private(set) var cursorRow = 0
  /// `columns` when a character was written in the last column and the next one wraps.
  private(set) var cursorColumn = 0
  var style = TerminalStyle.plain
  private var saved: (row: Int, column: Int, style: TerminalStyle)?
  private var annotating = false

  init(columns: Int, height: Int) {
    self.columns = max(columns, 2)
    self.height = max(height, 1)
  }

  // MARK: Input

  /// Draws decoded scalars: printable ones in cells, control characters as a terminal does.
  mutating func write<S: Sequence<Unicode.Scalar>>(_ scalars: S) {
    for scalar in scalars {
      switch scalar {
      case "\n", "\u{B}", "\u{C}":
        lineFeed()
        cursorColumn = 0
      case "\r":
        cursorColumn = 0
      case "\t":
        cursorColumn = min((min(cursorColumn, columns - 1) / 8 + 1) * 8, columns - 1)
      case "\u{8}":
        cursorColumn = max(0, min(cursorColumn, columns - 1) - 1)
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        break
      default:
        put(scalar)
      }
    }
  }

  /// Acts on a CSI sequence other than SGR: `final` is its final byte.
  mutating func control(_ final: UInt8, _ parameters: [[Int?]]) {
    func parameter(_ index: Int) -> Int? {
      index < parameters.count ? (parameters[index].first ?? nil) : nil
    }
    // Moves count at least one: `ESC[0A` moves one row, as `ESC[A` does.
    let count = max(parameter(0) ?? 1, 1)
    let column = min(cursorColumn, columns - 1)
    switch final {
    // Up and down keep a pending wrap, as tmux does: the next character goes to the next row.
    case UInt8(ascii: "A"): moveTo(row: cursorRow - count, column: column, wrapPending: true)
    case UInt8(ascii: "B"): moveTo(row: cursorRow + count, column: column, wrapPending: true)
    case UInt8(ascii: "C"): moveTo(row: cursorRow, column: column + count)
    case UInt8(ascii: "D"): moveTo(row: cursorRow, column: column - count)
    case UInt8(ascii: "E"): moveTo(row: cursorRow + count, column: 0)
    case UInt8(ascii: "F"): moveTo(row: cursorRow - count, column: 0)
    case UInt8(ascii: "G"): moveTo(row: cursorRow, column: count - 1)
    case UInt8(ascii: "d"): moveTo(row: count - 1, column: column, wrapPending: true)
    case UInt8(ascii: "H"), UInt8(ascii: "f"):
      moveTo(row: max(parameter(0) ?? 1, 1) - 1, column: max(parameter(1) ?? 1, 1) - 1)
    // Erases, deletions and insertions leave the cursor where it is; past the last column (a
    // wrap pending) they act on nothing after it, as in tmux.
    case UInt8(ascii: "K"):
      switch parameter(0) ?? 0 {
      case 0: erase(row: cursorRow, from: cursorColumn, to: columns)
      case 1: erase(row: cursorRow, from: 0, to: min(cursorColumn + 1, columns))
      case 2: erase(row: cursorRow, from: 0, to: columns)
      default: break
      }
    case UInt8(ascii: "J"):
      switch parameter(0) ?? 0 {
      case 0:
        erase(row: cursorRow, from: cursorColumn, to: columns)
        for row in (cursorRow + 1)..<max(rows.count, cursorRow + 1) {
          erase(row: row, from: 0, to: columns)
        }
      case 1:
        for row in 0..<cursorRow { erase(row: row, from: 0, to: columns) }
        erase(row: cursorRow, from: 0, to: min(cursorColumn + 1, columns))
      case 2, 3:
        for row in rows.indices { erase(row: row, from: 0, to: columns) }
      default: break
      }
    case UInt8(ascii: "X"):
      erase(row: cursorRow, from: cursorColumn, to: min(cursorColumn + count, columns))
    case UInt8(ascii: "P"):
      shift(from: cursorColumn, by: -count)
    case UInt8(ascii: "@"):
      shift(from: cursorColumn, by: count)
    case UInt8(ascii: "s"): saveCursor()
    case UInt8(ascii: "u"): restoreCursor()
    default: break
    }
  }

  /// Acts on a two-byte escape: `ESC 7` saves the cursor, `ESC 8` restores it.
  mutating func escape(_ final: UInt8) {
    switch final {
    case UInt8(ascii: "7"): saveCursor()
    case UInt8(ascii: "8"): restoreCursor()
    default: break
    }
  }

  /// Writes a line of the package's own (the command line, the exit status) on the rows after
  /// everything drawn so far, in the plain style, and leaves the cursor on the row after it.
  mutating func writeAnnotation<S: Sequence<Unicode.Scalar>>(_ scalars: S) {
    for _ in cursorRow..<usedRowCount { lineFeed() }
    cursorColumn = 0
    let savedStyle = style
    style = .plain
    annotating = true
    rows[cursorRow].annotation = true
    write(scalars)
    annotating = false
    lineFeed()
    cursorColumn = 0
    style = savedStyle
  }

  // MARK: Output

  /// The number of screen rows that hold something: those up to the last one written, or up to
  /// the cursor's row when the cursor is past its start (a last line without a line break).
  var usedRowCount: Int {
    let lastWritten = rows.lastIndex { !$0.cells.isEmpty } ?? -1
    let cursorRowUsed = !rows[cursorRow].cells.isEmpty || cursorColumn > 0
    return max(lastWritten + 1, cursorRowUsed ? cursorRow + 1 : cursorRow)
  }

  /// Every row the output produced: those scrolled out, then the used rows of the screen.
  var allRows: [Row] { scrolledOut + rows.prefix(usedRowCount) }

  // MARK: Drawing

  private mutating func put(_ scalar: Unicode.Scalar) {
    let width = TerminalWidth.of(scalar)
    if width == 0 || previousCellEndsWithJoiner {
      join(scalar)
      return
    }
    if cursorColumn + width > columns {
      // A character past the last column (or a wide one in it) goes to the next row.
      lineFeed()
      cursorColumn = 0
    }
    if annotating { rows[cursorRow].annotation = true }
    let cell = Cell(scalar: scalar, style: style, width: UInt8(width))
    set(cell, row: cursorRow, column: cursorColumn)
    if width == 2 {
      set(Cell(scalar: " ", style: style, width: 0), row: cursorRow, column: cursorColumn + 1)
    }
    cursorColumn += width
  }

  /// The position of the cell before the cursor (the first cell of a wide character).
  private var previousCell: Int? {
    var column = min(cursorColumn, columns) - 1
    let cells = rows[cursorRow].cells
    if column >= 0, column < cells.count, cells[column].width == 0 { column -= 1 }
    return column >= 0 && column < cells.count ? column : nil
  }

  private var previousCellEndsWithJoiner: Bool {
    guard let column = previousCell else { return false }
    return rows[cursorRow].cells[column].joined.last == "\u{200D}"
  }

  /// A zero-width scalar joins the character before the cursor; with none, it is dropped.
  private mutating func join(_ scalar: Unicode.Scalar) {
    guard let column = previousCell else { return }
    rows[cursorRow].cells[column].joined.append(scalar)
  }

  /// Sets a cell; a wide character it overwrites half of loses its other half.
  private mutating func set(_ cell: Cell, row: Int, column: Int) {
    var cells = rows[row].cells
    rows[row].cells = []
    while cells.count <= column { cells.append(.blank) }
    if cells[column].width == 0, column > 0, cell.width != 0 { cells[column - 1] = .blank }
    if cells[column].width == 2, column + 1 < cells.count { cells[column + 1] = .blank }
    cells[column] = cell
    rows[row].cells = cells
  }

  /// Blanks the cells `from..<to` of a row, with the current background colour, as terminals
  /// erase; blank cells at the end of a row without a background are removed.
  private mutating func erase(row: Int, from start: Int, to end: Int) {
    guard row < rows.count else { return }
    var cells = rows[row].cells
    rows[row].cells = []
    let blank = Cell(scalar: " ", style: TerminalStyle(background: style.background))
    // Half a wide character is no character: its other half goes too.
    if start > 0, start < cells.count, cells[start].width == 0 { cells[start - 1] = .blank }
    if end < cells.count, end > 0, cells[end].width == 0 { cells[end] = .blank }
    if blank == .blank, end >= cells.count {
      cells.removeSubrange(min(start, cells.count)...)
    } else {
      while cells.count < end { cells.append(.blank) }
      for column in start..<end { cells[column] = blank }
    }
    rows[row].cells = cells
  }

  /// Moves the cells from the cursor on by `offset`: left deletes characters, right inserts
  /// blanks; cells pushed past the last column are lost.
  private mutating func shift(from column: Int, by offset: Int) {
    var cells = rows[cursorRow].cells
    rows[cursorRow].cells = []
    guard column < cells.count else {
      rows[cursorRow].cells = cells
      return
    }
    if offset < 0 {
      cells.removeSubrange(column..<min(column - offset, cells.count))
    } else {
      cells.insert(contentsOf: repeatElement(.blank, count: min(offset, columns)), at: column)
      if cells.count > columns { cells.removeSubrange(columns...) }
    }
    // A wide character cut in half by the move becomes blank.
    if column < cells.count, cells[column].width == 0 { cells[column] = .blank }
    if let last = cells.indices.last, cells[last].width == 2 { cells[last] = .blank }
    rows[cursorRow].cells = cells
  }

  /// Moves the cursor inside the screen; with `wrapPending`, a wrap that was pending stays so.
  private mutating func moveTo(row: Int, column: Int, wrapPending: Bool = false) {
    let pending = wrapPending && cursorColumn == columns
    cursorRow = min(max(row, 0), height - 1)
    cursorColumn = pending ? columns : min(max(column, 0), columns - 1)
    while rows.count <= cursorRow { rows.append(Row()) }
  }

  /// Down one row, scrolling the screen at its bottom.
  private mutating func lineFeed() {
    if cursorRow == height - 1 {
      scrolledOut.append(rows.removeFirst())
      rows.append(Row())
    } else {
      cursorRow += 1
      while rows.count <= cursorRow { rows.append(Row()) }
    }
  }

  private mutating func saveCursor() {
    saved = (cursorRow, cursorColumn, style)
  }

  private mutating func restoreCursor() {
    guard let saved else {
      moveTo(row: 0, column: 0)
      style = .plain
      return
    }
    moveTo(row: saved.row, column: 0)
    cursorColumn = min(saved.column, columns)
    style = saved.style
  }
}

/// How many cells a terminal draws a scalar in: 0 (it joins the character before it), 1 or 2.
enum TerminalWidth {
  static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 { return 1 }
    if contains(TerminalWidthTable.zeroWidth, value) { return 0 }
    if contains(TerminalWidthTable.doubleWidth, value) { return 2 }
    return 1
  }

  /// Binary search of sorted, disjoint ranges.
  private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound < value {
        low = middle + 1
      } else if ranges[middle].lowerBound > value {
        high = middle
      } else {
        return true
      }
    }
    return false
  }
}
