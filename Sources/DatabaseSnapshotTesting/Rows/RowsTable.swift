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
  /// Written as bytes in two passes: the first copies each cell's text into one array (quoted
  /// when it needs to be, which is rare), scanning it there, and notes its width; the second
  /// copies the cells with their padding. A cell of ASCII bytes is as wide as it has bytes; only
  /// another cell's characters are counted.
  ///
  /// - Complexity: O(*n*) in the characters of the result.
  static func text(of result: SQLResult) -> String {
    var columnCount = result.columns.count
    var cellCount = result.columns.count
    for row in result.rows {
      columnCount = max(columnCount, row.count)
      cellCount += row.count
    }
    var widths = [Int](repeating: 0, count: columnCount)
    // Every cell's bytes, row after row, the header first; where each ends, and its width.
    var cells = Cells()
    cells.ends.reserveCapacity(cellCount)
    cells.widths.reserveCapacity(cellCount)
    for (column, name) in result.columns.enumerated() {
      cells.add(text: name)
      widths[column] = max(widths[column], cells.widths[cells.widths.count - 1])
    }
    for row in result.rows {
      for (column, value) in row.enumerated() {
        cells.add(value)
        widths[column] = max(widths[column], cells.widths[cells.widths.count - 1])
      }
    }
    let lineWidth = widths.reduce(0, +) + 3 * max(columnCount - 1, 0) + 1
    var bytes: [UInt8] = []
    bytes.reserveCapacity(lineWidth * (result.rows.count + 2) + 16)
    var next = 0
    var start = 0
    func line(cellsInRow count: Int) {
      for column in 0..<columnCount {
        if column > 0 { bytes.append(contentsOf: " | ".utf8) }
        var width = 0
        if column < count {
          let end = cells.ends[next]
          bytes.append(contentsOf: cells.bytes[start..<end])
          width = cells.widths[next]
          start = end
          next += 1
        }
        if column < columnCount - 1 {
          bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widths[column] - width))
        }
      }
      // An empty last cell (a row shorter than the header) leaves spaces: no line ends in one.
      while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
      bytes.append(UInt8(ascii: "\n"))
    }
    if columnCount > 0 {
      line(cellsInRow: result.columns.count)
      for column in 0..<columnCount {
        if column > 0 { bytes.append(contentsOf: "-+-".utf8) }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "-"), count: widths[column]))
      }
      bytes.append(UInt8(ascii: "\n"))
    }
    for row in result.rows { line(cellsInRow: row.count) }
    let count = result.rows.count
    bytes.append(contentsOf: (count == 1 ? "(1 row)" : "(\(count) rows)").utf8)
    // Valid UTF-8: every byte is copied from a Swift `String` or is ASCII.
    return String(copyingValidUTF8: bytes)
  }

  /// The cells' texts, one after the other, as the table writes them.
  private struct Cells {
    var bytes: [UInt8] = []
    /// Where each cell's bytes end in `bytes`.
    var ends: [Int] = []
    /// Each cell's width in characters.
    var widths: [Int] = []

    mutating func add(_ value: SQLValue) {
      switch value {
      case .null:
        bytes.append(contentsOf: "NULL".utf8)
        ends.append(bytes.count)
        widths.append(4)
      case .text(let text):
        add(text: text)
      case .bytes(let data):
        let start = bytes.count
        // ASCII: as wide as it has bytes.
        bytes.append(contentsOf: RowsTable.binarySummary(of: data).utf8)
        ends.append(bytes.count)
        widths.append(bytes.count - start)
      }
    }

    /// A text value or a column name, copied and scanned where it lies, quoted instead when it
    /// needs to be.
    mutating func add(text: String) {
      let start = bytes.count
      bytes.append(contentsOf: text.utf8)
      switch RowsTable.scan(bytes[start...]) {
      case .plainASCII:
        widths.append(bytes.count - start)
      case .plain:
        widths.append(text.count)
      case .needsQuotes:
        bytes.removeSubrange(start...)
        let quoted = RowsTable.quoted(text)
        bytes.append(contentsOf: quoted.utf8)
        widths.append(quoted.count)
      }
      ends.append(bytes.count)
    }
  }

  /// `<16 bytes, SHA-256 …>`: bytes, in a cell that changes whenever they do (as `.http` shows a
  /// binary body).
  static func binarySummary(of bytes: Data) -> String {
    let noun = bytes.count == 1 ? "byte" : "bytes"
    return "<\(bytes.count) \(noun), SHA-256 \(SHA256.hexDigest(of: bytes))>"
  }

  /// What a text needs to be written: as it is, and whether its bytes are all ASCII (then its
  /// width is its byte count), or in quotes.
  fileprivate enum Scan {
    case plainASCII, plain, needsQuotes
  }

  /// Whether a text, given as its UTF-8 bytes, needs quotes: it is empty or `NULL`, starts with `"`, `<` or a space, ends
  /// with a space, or holds a control character (U+0000–U+001F, U+007F–U+009F, the general
  /// category `Cc`). One pass over its UTF-8 bytes: U+0080–U+009F are `C2 80`–`C2 9F`.
  fileprivate static func scan(_ bytes: ArraySlice<UInt8>) -> Scan {
    guard let first = bytes.first, let last = bytes.last else { return .needsQuotes }
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "<") || first == UInt8(ascii: " ")
      || last == UInt8(ascii: " ") || bytes.elementsEqual("NULL".utf8)
    {
      return .needsQuotes
    }
    var ascii = true
    var afterC2 = false
    for byte in bytes {
      if byte < 0x20 || byte == 0x7F || (afterC2 && byte < 0xA0) { return .needsQuotes }
      afterC2 = byte == 0xC2
      if byte >= 0x80 { ascii = false }
    }
    return ascii ? .plainASCII : .plain
  }

  /// A control character, as ``scan(_:)`` finds them.
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
