import Foundation
import RunRecord

/// A result as an aligned table: a header of column names, a rule, one line per row, and the
/// count of rows.
///
/// ```
/// id | title        | done
/// ---+--------------+-----
/// 1  | Buy milk     | f
/// 2  | Walk the dog | NULL
/// (2 rows)
/// ```
///
/// Values are written as the database printed them. `NULL` is SQL's null; a text value that could
/// be read as something else (`NULL` itself, an empty string, one with a line break, a tab,
/// another control character or spaces at either end, or one that starts with `"` or `<`) is
/// written in double quotes with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}` escapes. Bytes are
/// written as `<16 bytes, SHA-256 …>`. The last column is not padded, so no line ends in spaces.
enum RowsTable {
  /// The table of `result`.
  ///
  /// The columns' widths come first, then the lines, written as bytes. Most results hold only
  /// ASCII texts that need no quotes, whose widths are their sizes in bytes, known without
  /// reading them: the table is first written on that assumption, each text checked as it is
  /// copied, so that each is read once. A text that is not such ends that attempt where it
  /// stands, and the table is written again from widths measured by reading every text first,
  /// counting the characters of those that are not ASCII and quoting those that need it.
  ///
  /// - Complexity: O(*n*) in the characters of the result.
  static func text(of result: SQLResult) -> String {
    let header = result.columns.map(SQLValue.text)
    if let text = text(of: result, header: header, layout: Layout(sizesOf: result, header: header))
    {
      return text
    }
    // A measured layout is never refused.
    let measured = Layout(measuring: result, header: header)
    return text(of: result, header: header, layout: measured) ?? ""
  }

  /// The table written with `layout`; `nil` when the layout was assumed and a text is not what
  /// it assumed.
  ///
  /// The lines are written into a chunk of bytes at a time, each appended to the text, which is
  /// reserved at its size: one large allocation, not two (the bytes and their copy). A chunk
  /// starts as spaces, so that padding and the spaces around separators are skipped, not written.
  private static func text(of result: SQLResult, header: [SQLValue], layout: Layout) -> String? {
    let widths = layout.widths
    let columnCount = widths.count
    let count = result.rows.count
    let countLine = count == 1 ? "(1 row)" : "(\(count) rows)"
    // Each line's padding and separators less its cells' widths, and the cells' bytes: the
    // text's size, less the spaces that end the line of a row shorter than the header.
    let separators = 3 * max(columnCount - 1, 0)
    let paddedWidth = widths.dropLast().reduce(0, +)
    let lines = count + (columnCount > 0 ? 1 : 0)
    var capacity = layout.contentBytes + lines * (paddedWidth + separators + 1)
    capacity += countLine.utf8.count
    if columnCount > 0 { capacity += widths.reduce(0, +) + separators + 1 }
    // The most a line takes: every column as wide as its widest cell, and as many bytes more as
    // its cells' bytes exceed their width.
    let lineBytes = widths.reduce(0, +) + layout.extraBytes.reduce(0, +) + separators + 1
    // A chunk holds the header and its rule, or a line and the count.
    let chunkBytes = max(Self.chunkBytes, 2 * lineBytes + countLine.utf8.count)
    var table = ""
    table.reserveCapacity(capacity)
    var writer = Writer(layout: layout)
    var row = columnCount > 0 ? -1 : 0
    var wroteCount = false
    let rows = result.rows.span
    while !wroteCount {
      var chunk = [UInt8](repeating: UInt8(ascii: " "), count: chunkBytes)
      var end = 0
      do {
        var bytes = chunk.mutableSpan
        if row == -1 {
          guard writer.line(of: header.span, to: &bytes, at: &end) else { return nil }
          for column in widths.indices {
            if column > 0 {
              bytes[end] = UInt8(ascii: "-")
              bytes[end + 1] = UInt8(ascii: "+")
              bytes[end + 2] = UInt8(ascii: "-")
              end += 3
            }
            for _ in 0..<widths[column] {
              bytes[end] = UInt8(ascii: "-")
              end += 1
            }
          }
          bytes[end] = UInt8(ascii: "\n")
          end += 1
          row = 0
        }
        while row < count, chunkBytes - end >= lineBytes {
          guard writer.line(of: rows[row].span, to: &bytes, at: &end) else { return nil }
          row += 1
        }
        if row == count, chunkBytes - end >= countLine.utf8.count {
          copy(countLine.utf8.span, to: &bytes, at: &end)
          wroteCount = true
        }
      }
      chunk.removeLast(chunkBytes - end)
      // Valid UTF-8: every byte is copied from a Swift `String` or is ASCII, and a chunk ends
      // at a line's end.
      table.append(String(copyingValidUTF8: chunk))
    }
    return table
  }

  /// The size of the chunks the text is written in: small enough to stay in the processor's
  /// cache, large enough that appending them costs little.
  private static let chunkBytes = 32 * 1024

  /// A cell's width in characters and its size in bytes, as written.
  private struct Cell {
    var width: Int
    var bytes: Int
  }

  /// Each column's width, the cells not written as their value's text, and the bytes the lines
  /// hold beyond their padding.
  private struct Layout {
    /// A cell whose width is not its size in bytes (a text of other characters than ASCII's), or
    /// that is written otherwise than its text (quoted, bytes' summary).
    struct Special {
      /// The cell's place, counting the header's cells, then each row's.
      var cell: Int
      var width: Int
      /// What is written instead of the value's text; `nil` for the text.
      var replacement: String?
    }

    var widths: [Int]
    /// How many bytes each column's cells take beyond their width, at most (other characters
    /// than ASCII's, quotes' escapes).
    var extraBytes: [Int]
    var special: [Special] = []
    /// The cells' bytes, less their widths in the columns that are padded.
    var contentBytes = 0
    /// Whether each text was taken to be ASCII that needs no quotes, unread: the writer checks.
    let isAssumed: Bool
    /// The cells measured so far.
    private var cells = 0

    /// The layout if every text is ASCII that needs no quotes: each text as wide as its size.
    init(sizesOf result: SQLResult, header: [SQLValue]) {
      self.init(columnsOf: result, isAssumed: true)
      noteSizes(of: header.span)
      // Spans, not arrays: an array taken from the result is retained and released.
      let rows = result.rows.span
      for row in rows.indices { noteSizes(of: rows[row].span) }
    }

    /// The layout of every text as it is: read, quoted where it needs to be, its characters
    /// counted when they are not all ASCII.
    init(measuring result: SQLResult, header: [SQLValue]) {
      self.init(columnsOf: result, isAssumed: false)
      noteMeasures(of: header.span)
      let rows = result.rows.span
      for row in rows.indices { noteMeasures(of: rows[row].span) }
    }

    private init(columnsOf result: SQLResult, isAssumed: Bool) {
      var columnCount = result.columns.count
      let rows = result.rows.span
      for row in rows.indices { columnCount = max(columnCount, rows[row].count) }
      widths = [Int](repeating: 0, count: columnCount)
      extraBytes = widths
      self.isAssumed = isAssumed
    }

    /// Notes a row's cells (or the header's) as if each text were ASCII that needs no quotes.
    private mutating func noteSizes(of row: Span<SQLValue>) {
      let lastColumn = widths.count - 1
      for column in row.indices {
        if case .text(let text) = row[column] {
          let size = text.utf8.count
          note(Cell(width: size, bytes: size), column: column, last: lastColumn)
        } else {
          note(measure(row[column]), column: column, last: lastColumn)
        }
      }
    }

    /// Notes a row's cells (or the header's), each text read.
    private mutating func noteMeasures(of row: Span<SQLValue>) {
      let lastColumn = widths.count - 1
      for column in row.indices { note(measure(row[column]), column: column, last: lastColumn) }
    }

    /// Notes the next cell, in `column`: its column's widest, and its bytes. The arrays are
    /// written only when a cell is wider (rarely, after the first rows): each write checks that
    /// the array is not shared.
    private mutating func note(_ cell: Cell, column: Int, last lastColumn: Int) {
      if cell.width > widths[column] { widths[column] = cell.width }
      if cell.bytes - cell.width > extraBytes[column] {
        extraBytes[column] = cell.bytes - cell.width
      }
      contentBytes += cell.bytes - (column < lastColumn ? cell.width : 0)
      cells += 1
    }

    /// A value's cell, its text read.
    private mutating func measure(_ value: SQLValue) -> Cell {
      switch value {
      case .null:
        return Cell(width: 4, bytes: 4)
      case .bytes(let data):
        // ASCII: as wide as it has bytes.
        let summary = RowsTable.binarySummary(of: data)
        let size = summary.utf8.count
        special.append(Special(cell: cells, width: size, replacement: summary))
        return Cell(width: size, bytes: size)
      case .text(let text):
        let bytes = text.utf8.span
        if RowsTable.isPlainASCII(bytes) {
          return Cell(width: bytes.count, bytes: bytes.count)
        }
        if !RowsTable.needsQuotesAtItsEnds(bytes), !RowsTable.holdsControl(bytes) {
          let width = text.count
          special.append(Special(cell: cells, width: width, replacement: nil))
          return Cell(width: width, bytes: bytes.count)
        }
        let quoted = RowsTable.quoted(text)
        let width = quoted.count
        special.append(Special(cell: cells, width: width, replacement: quoted))
        return Cell(width: width, bytes: quoted.utf8.count)
      }
    }
  }

  /// Writes the lines: each cell as its value's text or its replacement, padded to its column's
  /// width, into a chunk of spaces. With an assumed layout it checks each text as it copies it,
  /// and stops at the first that is not ASCII needing no quotes.
  private struct Writer {
    let layout: Layout
    /// The next cell.
    private var cell = 0
    /// The next of the layout's special cells.
    private var special = 0

    init(layout: Layout) {
      self.layout = layout
    }

    /// Writes a row's line (or the header's) at `end`, and moves `end` past it; `false` if it
    /// stopped at a text the layout did not assume.
    mutating func line(
      of row: Span<SQLValue>,
      to bytes: inout MutableSpan<UInt8>,
      at end: inout Int
    ) -> Bool {
      let widths = layout.widths
      let lastColumn = widths.count - 1
      var at = end
      for column in widths.indices {
        if column > 0 {
          // ` | `, of which the spaces are there.
          bytes[at + 1] = UInt8(ascii: "|")
          at += 3
        }
        var width = 0
        if column < row.count {
          guard let written = write(row, column, to: &bytes, at: &at) else { return false }
          width = written
        }
        // The padding is there too.
        if column < lastColumn { at += widths[column] - width }
      }
      // An empty last cell (a row shorter than the header) leaves spaces: no line ends in one.
      while row.count < widths.count, at > end, bytes[at - 1] == UInt8(ascii: " ") {
        at -= 1
      }
      bytes[at] = UInt8(ascii: "\n")
      end = at + 1
      return true
    }

    /// Writes the next cell at `at`, and moves `at` past its bytes; its width, or `nil` for a
    /// text the layout did not assume.
    @inline(__always)
    private mutating func write(
      _ row: Span<SQLValue>,
      _ column: Int,
      to bytes: inout MutableSpan<UInt8>,
      at: inout Int
    ) -> Int? {
      defer { cell += 1 }
      var width: Int?
      if special < layout.special.count, layout.special[special].cell == cell {
        let special = layout.special[special]
        self.special += 1
        if let replacement = special.replacement {
          RowsTable.copy(replacement.utf8.span, to: &bytes, at: &at)
          return special.width
        }
        width = special.width
      }
      switch row[column] {
      case .null:
        bytes[at] = UInt8(ascii: "N")
        bytes[at + 1] = UInt8(ascii: "U")
        bytes[at + 2] = UInt8(ascii: "L")
        bytes[at + 3] = UInt8(ascii: "L")
        at += 4
        return 4
      case .text(let value):
        let source = value.utf8.span
        if !layout.isAssumed {
          RowsTable.copy(source, to: &bytes, at: &at)
          return width ?? source.count
        }
        // Checked as it is copied (`isPlainASCII`'s rule): the copy is dropped if it fails.
        guard !RowsTable.needsQuotesAtItsEnds(source) else { return nil }
        return RowsTable.copy(source, to: &bytes, at: &at).isPlain ? source.count : nil
      case .bytes(let data):
        // Not reached: bytes are a special cell with a replacement, written above.
        let summary = RowsTable.binarySummary(of: data)
        RowsTable.copy(summary.utf8.span, to: &bytes, at: &at)
        return summary.utf8.count
      }
    }
  }

  /// Copies bytes to `at`, and moves `at` past them; what they hold, learnt as they are copied.
  /// The target is cut to the source's size first, so that no bound is checked in the loop and
  /// the compiler can copy and scan many bytes at a time.
  @inline(__always) @discardableResult
  private static func copy(
    _ source: Span<UInt8>,
    to bytes: inout MutableSpan<UInt8>,
    at: inout Int
  ) -> ASCIIScan {
    let count = source.count
    // `extracting(_:)`'s name in Swift 6.3, which deprecates the other.
    var target = bytes._mutatingExtracting(at..<at + count)
    var scan = ASCIIScan()
    for index in 0..<count {
      let byte = source[index]
      scan.add(byte)
      target[index] = byte
    }
    at += count
    return scan
  }

  /// `<16 bytes, SHA-256 …>`: bytes, in a cell that changes whenever they do (as `.http` shows a
  /// binary body).
  static func binarySummary(of bytes: Data) -> String {
    let noun = bytes.count == 1 ? "byte" : "bytes"
    return "<\(bytes.count) \(noun), SHA-256 \(SHA256.hexDigest(of: bytes))>"
  }

  /// Whether a text, given as its UTF-8 bytes, is ASCII that needs no quotes, so that it is
  /// written as it is and is as wide as it has bytes.
  fileprivate static func isPlainASCII(_ bytes: Span<UInt8>) -> Bool {
    if needsQuotesAtItsEnds(bytes) { return false }
    var scan = ASCIIScan()
    for index in bytes.indices { scan.add(bytes[index]) }
    return scan.isPlain
  }

  /// Whether bytes are ASCII without a control character (U+0000–U+001F, U+007F), learnt a
  /// byte at a time with no branch and no step that waits on more than the one before it.
  private struct ASCIIScan {
    /// Every byte or-ed together: its high bit is set by a byte that is not ASCII.
    private var all: UInt8 = 0
    /// Every byte plus 0x60, and-ed together: a byte below 0x20 clears the high bit (for the
    /// others, plus 0x60 is 0x80 or more).
    private var shifted: UInt8 = 0xFF
    /// Every byte's successor, or-ed together: 0x7F sets the high bit (as would bytes that are
    /// not ASCII, which `all` finds).
    private var successors: UInt8 = 0

    mutating func add(_ byte: UInt8) {
      all |= byte
      shifted &= byte &+ 0x60
      successors |= byte &+ 1
    }

    var isPlain: Bool {
      (all | ~shifted | successors) & 0x80 == 0
    }
  }

  /// Whether a text, given as its UTF-8 bytes, needs quotes for what its ends hold: it is empty
  /// or `NULL`, starts with `"`, `<` or a space, or ends with a space. ``holdsControl(_:)`` and
  /// the first pass's scan look for the other reason, a control character.
  @inline(__always)
  fileprivate static func needsQuotesAtItsEnds(_ bytes: Span<UInt8>) -> Bool {
    guard !bytes.isEmpty else { return true }
    let first = bytes[0]
    let last = bytes[bytes.count - 1]
    return first == UInt8(ascii: "\"") || first == UInt8(ascii: "<") || first == UInt8(ascii: " ")
      || last == UInt8(ascii: " ")
      || (bytes.count == 4 && first == UInt8(ascii: "N") && bytes[1] == UInt8(ascii: "U")
        && bytes[2] == UInt8(ascii: "L") && last == UInt8(ascii: "L"))
  }

  /// Whether a text, given as its UTF-8 bytes, holds a control character (U+0000–U+001F,
  /// U+007F–U+009F, the general category `Cc`). One pass over its UTF-8 bytes: U+0080–U+009F are
  /// `C2 80`–`C2 9F`.
  fileprivate static func holdsControl(_ bytes: Span<UInt8>) -> Bool {
    var afterC2 = false
    for index in bytes.indices {
      let byte = bytes[index]
      if byte < 0x20 || byte == 0x7F || (afterC2 && byte < 0xA0) { return true }
      afterC2 = byte == 0xC2
    }
    return false
  }

  /// A control character, as ``holdsControl(_:)`` finds them.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
  }

  fileprivate static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if isControl(scalar) {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
