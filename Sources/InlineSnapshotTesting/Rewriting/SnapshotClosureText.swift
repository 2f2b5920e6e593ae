/// The source text of a closure that returns `text` as a multi-line string literal:
///
/// ```swift
/// {
///   """
///   text
///   """
/// }
/// ```
///
/// The literal is raw (`#"""`) with as many `#` as the text needs to be read back unchanged, and
/// carriage returns and control characters are written as escapes so the file stays valid and
/// the text survives editors that normalise line endings. Trailing whitespace is kept as is.
///
/// - Parameters:
///   - indentation: The leading whitespace of the line of the call; the closing brace gets it.
///   - indentUnit: One level of indentation; the literal is indented one level deeper.
///   - newline: The file's line separator.
func snapshotClosureText(
  _ text: String,
  indentation: String,
  indentUnit: String,
  newline: String
) -> String {
  let pounds = String(repeating: "#", count: rawDelimiterLength(for: text))
  let bodyIndentation = indentation + indentUnit
  // Split by scalars: as Characters, a CR LF pair would not split at its LF.
  let body = escapingUnprintables(in: text, pounds: pounds).unicodeScalars
    .split(separator: "\n", omittingEmptySubsequences: false)
    .map { $0.isEmpty ? "" : bodyIndentation + String(String.UnicodeScalarView($0)) }
    .joined(separator: newline)
  return "{" + newline
    + bodyIndentation + pounds + #"""""# + newline
    + body + newline
    + bodyIndentation + #"""""# + pounds + newline
    + indentation + "}"
}

/// How many `#` a raw multi-line literal of `text` needs: none when the text has no backslash and
/// no `"""`; otherwise one more than the longest run of `#` that follows a backslash or a `"""`
/// in the text, so that neither can be read as an escape or as the closing delimiter.
///
/// - Complexity: O(*n*) in the text's length.
func rawDelimiterLength(for text: String) -> Int {
  let bytes = Array(text.utf8)
  var length = 0
  var index = 0
  while index < bytes.count {
    let byte = bytes[index]
    var runEnd = index + 1
    let needsDelimiter: Bool
    if byte == UInt8(ascii: "\\") {
      needsDelimiter = true
    } else if byte == UInt8(ascii: "\"") {
      while runEnd < bytes.count, bytes[runEnd] == UInt8(ascii: "\"") { runEnd += 1 }
      needsDelimiter = runEnd - index >= 3
    } else {
      needsDelimiter = false
    }
    if needsDelimiter {
      var poundsEnd = runEnd
      while poundsEnd < bytes.count, bytes[poundsEnd] == UInt8(ascii: "#") { poundsEnd += 1 }
      length = max(length, poundsEnd - runEnd + 1)
    }
    index = runEnd
  }
  return length
}

/// Writes carriage returns as `\r` and other control characters (except tab and line feed) as
/// `\u{…}`, with the literal's `#` after the backslash. The compiler rejects most raw control
/// characters in source, and a raw carriage return would be read back as a line break.
private func escapingUnprintables(in text: String, pounds: String) -> String {
  var result = ""
  result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
  for scalar in text.unicodeScalars {
    switch scalar.value {
    case 0x0D:
      result += "\\" + pounds + "r"
    case 0x09, 0x0A:
      result.unicodeScalars.append(scalar)
    case 0x00..<0x20, 0x7F:
      result += "\\" + pounds + "u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default:
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}
