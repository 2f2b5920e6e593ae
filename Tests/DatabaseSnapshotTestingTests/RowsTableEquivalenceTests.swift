import Foundation
import TestSupport
import Testing

@testable import DatabaseSnapshotTesting

/// `.rows`' table is written the fast way (bytes, ASCII cells measured by their byte count,
/// control characters found in one pass over the bytes); these tests hold it to the plain rule
/// it stands for, written below with strings, characters and Unicode's general category.
@Suite struct RowsTableEquivalenceTests {
  /// Values a result may hold: plain ASCII, accents and wide characters (a character of several
  /// bytes, a combining mark), each kind of value that needs quotes (C0 and C1 control
  /// characters, `\r\n`, spaces at either end, a leading quote or `<`, `NULL`, empty), bytes.
  static let values: [SQLValue] = [
    "1", "Buy milk", "f", "t", "2024-05-01 12:00:00+00", "café", "e\u{301}tude", "日本語", "🦊",
    "NULL", "", " lead", "trail ", "\"quoted", "<tag>", "a\tb", "one\r\ntwo", "bell\u{7}",
    "del\u{7F}", "c1\u{85}", "c1\u{9F}end", "\u{A0}nbsp", "Ā", "nul\u{0}", "back\\slash",
    "a | b", "-", .null, .bytes(Data()), .bytes(Data([0])), .bytes(Data("binary".utf8)),
  ]

  @Test func randomResultsAreThePlainRulesTable() {
    var random = SplitMix64(state: 46)
    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let names = ["id", "title", "", "NULL", "naïve", " x", "a\nb", "🦊", "done"]
    for _ in 0..<300 {
      let columns = (0..<below(5)).map { _ in names[below(names.count)] }
      // Rows as long as the header, and some shorter or longer, as a driver may return them.
      let rows = (0..<below(7)).map { _ in
        let count = below(4) == 0 ? below(6) : columns.count
        return (0..<count).map { _ in Self.values[below(Self.values.count)] }
      }
      let result = SQLResult(columns: columns, rows: rows)
      #expect(RowsTable.text(of: result) == Self.plainTable(of: result), "\(result)")
    }
  }

  @Test func aLargeResultIsThePlainRulesTable() {
    let rows = (0..<2_000).map { index -> [SQLValue] in
      [.text("\(index)"), Self.values[index % Self.values.count], index % 7 == 0 ? .null : "x"]
    }
    let result = SQLResult(columns: ["id", "value", "flag"], rows: rows)
    let table = RowsTable.text(of: result)
    #expect(table.split(separator: "\n").count == 2_003)
    #expect(table == Self.plainTable(of: result))
  }

  /// ASCII values that need no quotes, so that the table is written on its first attempt, in
  /// many chunks; then the same with one value that is not such, in the last row or the first,
  /// which ends the first attempt where it stands; and rows shorter and longer than the header
  /// at the chunks' ends.
  @Test(arguments: [nil, "café", "NULL", "a\tb", "", "<x>", "\u{85}"] as [SQLValue?])
  func aResultOfManyChunksIsThePlainRulesTable(odd: SQLValue?) {
    let plain: [SQLValue] = ["1", "Buy milk", "f", "2024-05-01 12:00:00+00", "a | b", "-", .null]
    var random = SplitMix64(state: 4_600)
    func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    var rows = (0..<6_000).map { index -> [SQLValue] in
      let count = below(9) == 0 ? below(6) : 4
      return [.text("\(index)")] + (1..<max(count, 1)).map { _ in plain[below(plain.count)] }
    }
    if let odd {
      rows[rows.count - 1][0] = odd
      let first = SQLResult(columns: ["id", "a", "b", "c"], rows: [[odd]] + rows.dropLast())
      #expect(RowsTable.text(of: first) == Self.plainTable(of: first))
    }
    let result = SQLResult(columns: ["id", "a", "b", "c"], rows: rows)
    let table = RowsTable.text(of: result)
    #expect(table.utf8.count > 4 * 32 * 1024)
    #expect(table == Self.plainTable(of: result))
  }

  /// A line longer than the chunks the table is written in.
  @Test func aLineLongerThanAChunkIsThePlainRulesTable() {
    let long = SQLValue.text(String(repeating: "0123456789", count: 10_000))
    for rows in [[["1", long]], [["1", long], [long]], [["1", "x"], ["2", long, "é"]]] {
      let result = SQLResult(columns: ["id", "text"], rows: rows)
      #expect(RowsTable.text(of: result) == Self.plainTable(of: result))
    }
  }

  // MARK: The plain rule

  static func plainTable(of result: SQLResult) -> String {
    let header = result.columns.map { needsQuotes($0) ? quoted($0) : $0 }
    let body = result.rows.map { row in
      row.map { value -> String in
        switch value {
        case .null: "NULL"
        case .text(let text): needsQuotes(text) ? quoted(text) : text
        case .bytes(let bytes): RowsTable.binarySummary(of: bytes)
        }
      }
    }
    let columnCount = max(header.count, body.map(\.count).max() ?? 0)
    var widths = [Int](repeating: 0, count: columnCount)
    for line in [header] + body {
      for (index, text) in line.enumerated() { widths[index] = max(widths[index], text.count) }
    }
    func line(_ cells: [String]) -> String {
      var text = ""
      for (index, width) in widths.enumerated() {
        let value = index < cells.count ? cells[index] : ""
        if index > 0 { text += " | " }
        text += value
        if index < widths.count - 1 { text += String(repeating: " ", count: width - value.count) }
      }
      while text.last == " " { text.removeLast() }
      return text
    }
    var lines: [String] = []
    if columnCount > 0 {
      lines.append(line(header))
      lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-"))
    }
    lines += body.map(line)
    lines.append(result.rows.count == 1 ? "(1 row)" : "(\(result.rows.count) rows)")
    return lines.joined(separator: "\n")
  }

  static func needsQuotes(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else {
      return true
    }
    if text == "NULL" || first == "\"" || first == "<" || first == " " || last == " " {
      return true
    }
    return text.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

  static func quoted(_ text: String) -> String {
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
