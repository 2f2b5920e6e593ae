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
  /// - Complexity: O(*n*) in the characters of the result.
  static func text(of result: SQLResult) -> String {
    let header = result.columns.map(cell(ofName:))
    let body = result.rows.map { row in row.map(cell(of:)) }
    let columnCount = max(header.count, body.lazy.map(\.count).max() ?? 0)
    var widths = [Int](repeating: 0, count: columnCount)
    for line in [header] + body {
      for (index, text) in line.enumerated() { widths[index] = max(widths[index], text.count) }
    }
    var lines: [String] = []
    lines.reserveCapacity(body.count + 3)
    if columnCount > 0 {
      lines.append(line(header, widths: widths))
      lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-"))
    }
    for row in body { lines.append(line(row, widths: widths)) }
    let count = result.rows.count
    lines.append(count == 1 ? "(1 row)" : "(\(count) rows)")
    return lines.joined(separator: "\n")
  }

  private static func line(_ cells: [String], widths: [Int]) -> String {
    var text = ""
    for (index, width) in widths.enumerated() {
      let value = index < cells.count ? cells[index] : ""
      if index > 0 { text += " | " }
      text += value
      if index < widths.count - 1 {
        text += String(repeating: " ", count: width - value.count)
      }
    }
    // The last cell may be empty (a row shorter than the header): no trailing spaces either way.
    while text.last == " " { text.removeLast() }
    return text
  }

  /// A column name, quoted by the same rule as a text value.
  private static func cell(ofName name: String) -> String {
    needsQuotes(name) ? quoted(name) : name
  }

  /// One value as it appears in the table.
  static func cell(of value: SQLValue) -> String {
    switch value {
    case .null: "NULL"
    case .text(let text): needsQuotes(text) ? quoted(text) : text
    case .bytes(let bytes): binarySummary(of: bytes)
    }
  }

  /// `<16 bytes, SHA-256 …>`: bytes, in a cell that changes whenever they do (as `.http` shows a
  /// binary body).
  static func binarySummary(of bytes: Data) -> String {
    let noun = bytes.count == 1 ? "byte" : "bytes"
    return "<\(bytes.count) \(noun), SHA-256 \(SHA256.hexDigest(of: bytes))>"
  }

  private static func needsQuotes(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else {
      return true
    }
    if text == "NULL" || first == "\"" || first == "<" || first == " " || last == " " {
      return true
    }
    return text.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

  private static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.properties.generalCategory == .control {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
