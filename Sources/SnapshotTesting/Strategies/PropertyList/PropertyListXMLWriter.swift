import Foundation

/// Writes a ``PropertyListNode`` tree as an XML property list, byte for byte as upstream
/// swift-snapshot-testing does (its encoder hands the tree to Core Foundation's XML writer, on
/// Linux and on Apple platforms alike), so that committed `.plist` references keep matching.
///
/// ```swift
/// let root = try PropertyListTreeEncoder().encode(["price": 19.99])
/// PropertyListXMLWriter.document(for: root)
/// ```
///
/// writes the XML declaration, the property list doctype, `<plist version="1.0">`, then
///
/// ```xml
/// <dict>
/// 	<key>price</key>
/// 	<real>19.989999999999998</real>
/// </dict>
/// ```
///
/// The formatting rules, each learnt from upstream's output:
///
/// - one element a line, indented with one tab per level (the root is not indented);
/// - dictionary keys sorted by their UTF-16 code units (`"Z"` before `"a"`, `"~"` before `"é"`);
/// - empty containers as `<array/>` and `<dict/>`; booleans as `<true/>` and `<false/>`;
/// - strings and keys escape only `&`, `<` and `>`; quotes and control characters stay as they are;
/// - reals with 17 significant digits (C's `%.17g`: `0.10000000000000001`, `1`, `1e+20`), `0.0`
///   for either zero, `nan`, `+infinity` and `-infinity`; a `Float` is widened to `Double` first;
/// - dates in UTC as `yyyy-MM-ddTHH:mm:ssZ` on the proleptic Gregorian calendar, fractions of a
///   second dropped (rounded down);
/// - data in base64 on lines of `76 − 8 × indentation` characters, each line indented like its
///   `<data>` element but never by more than 8 tabs.
///
/// Complexity: O(*n* + *k* log *k*) for a tree of *n* nodes whose largest dictionary has *k* keys.
///
/// It walks the tree with a stack of its own, never recursing, and writes no tree nested deeper
/// than ``maximumDepth`` (each level indents every line below it by a tab, so the text of a deep
/// chain grows with the square of its depth).
enum PropertyListXMLWriter {
  /// The deepest nesting written: containers inside containers, the root at depth 0.
  static let maximumDepth = 1000

  /// The document, or `nil` when the tree is nested deeper than ``maximumDepth``.
  static func document(for root: PropertyListNode) -> String? {
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    // What is left to write, the next last: nodes, and the closing tags and keys around them.
    var pending: [Pending] = [.node(root, depth: 0)]
    while let next = pending.popLast() {
      switch next {
      case .text(let text):
        xml += text
      case .node(let node, let depth):
        guard depth <= maximumDepth else { return nil }
        write(node, depth: depth, into: &xml, then: &pending)
      }
    }
    xml += "</plist>\n"
    return xml
  }

  private enum Pending {
    case node(PropertyListNode, depth: Int)
    case text(String)
  }

  /// Writes a leaf, or a container's opening tag, leaving its contents and closing tag to
  /// `pending`.
  private static func write(
    _ node: PropertyListNode,
    depth: Int,
    into xml: inout String,
    then pending: inout [Pending]
  ) {
    let indentation = String(repeating: "\t", count: depth)
    xml += indentation
    switch node.content {
    case .string(let string):
      xml += "<string>\(escaped(string))</string>\n"
    case .signedInteger(let integer):
      xml += "<integer>\(integer)</integer>\n"
    case .unsignedInteger(let integer):
      xml += "<integer>\(integer)</integer>\n"
    case .real(let real):
      xml += "<real>\(formatted(real))</real>\n"
    case .boolean(let boolean):
      xml += boolean ? "<true/>\n" : "<false/>\n"
    case .date(let date):
      xml += "<date>\(formatted(date))</date>\n"
    case .data(let data):
      xml += "<data>\n"
      writeBase64(data, depth: depth, into: &xml)
      xml += indentation + "</data>\n"
    case .array:
      guard !node.elements.isEmpty else {
        xml += "<array/>\n"
        return
      }
      xml += "<array>\n"
      pending.append(.text(indentation + "</array>\n"))
      for element in node.elements.reversed() {
        pending.append(.node(element, depth: depth + 1))
      }
    case .dictionary:
      let entries = node.sortedEntries
      guard !entries.isEmpty else {
        xml += "<dict/>\n"
        return
      }
      xml += "<dict>\n"
      pending.append(.text(indentation + "</dict>\n"))
      for (key, value) in entries.reversed() {
        pending.append(.node(value, depth: depth + 1))
        pending.append(.text(indentation + "\t<key>\(escaped(key))</key>\n"))
      }
    }
  }

  /// Escapes the three characters that XML text cannot hold as they are.
  static func escaped(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
      })
    else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A real as upstream writes it: 17 significant digits, which reads back as the same `Double`.
  static func formatted(_ real: Double) -> String {
    if real.isNaN { return "nan" }
    if real.isInfinite { return real > 0 ? "+infinity" : "-infinity" }
    if real == 0 { return "0.0" }
    return String(format: "%.17g", real)
  }

  /// A date as upstream writes it: UTC, whole seconds rounded down, proleptic Gregorian.
  static func formatted(_ date: Date) -> String {
    // Whole seconds since 1970; dates beyond ±2⁵³ seconds (far past any calendar) are clamped.
    let limit = 9_007_199_254_740_992.0
    let seconds =
      date.timeIntervalSince1970.isNaN
      ? 0 : Int64(min(max(date.timeIntervalSince1970.rounded(.down), -limit), limit))
    let (days, secondOfDay) = floorDivision(seconds, 86_400)
    let (year, month, day) = civilDate(daysSince1970: days)
    return String(
      format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
      year,
      month,
      day,
      secondOfDay / 3600,
      secondOfDay / 60 % 60,
      secondOfDay % 60
    )
  }

  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
  }

  /// The proleptic Gregorian year, month and day of a day count, counting eras of 400 years
  /// (146,097 days) from 0000-03-01 so that leap days fall at the end of each year.
  private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let daysSinceMarch0000 = daysSince1970 + 719_468
    let (era, dayOfEra) = floorDivision(daysSinceMarch0000, 146_097)
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 is March
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func writeBase64(_ data: Data, depth: Int, into xml: inout String) {
    let lineDepth = min(depth, 8)
    let lineLength = 76 - 8 * lineDepth
    let indentation = String(repeating: "\t", count: lineDepth)
    let encoded = data.base64EncodedString()
    var lineStart = encoded.startIndex
    while lineStart < encoded.endIndex {
      let lineEnd =
        encoded.index(lineStart, offsetBy: lineLength, limitedBy: encoded.endIndex)
        ?? encoded.endIndex
      xml += indentation
      xml += encoded[lineStart..<lineEnd]
      xml += "\n"
      lineStart = lineEnd
    }
  }
}
