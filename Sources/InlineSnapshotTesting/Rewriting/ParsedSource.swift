import RunRecord

/// A test's source, or the text of one call in it, scanned once: its tokens, its lines, and its
/// calls by the position `#line` and `#column` give them.
///
/// Every step of a pass over a file reads the same scan: finding the recorded calls, checking and
/// writing their closures, following them into a file another process rewrote.
///
/// ```swift
/// let source = ParsedSource(text)
/// let call = source.call(line: recording.line, column: recording.column)
/// ```
///
/// - Complexity: O(*n*) to build for *n* bytes; a lookup is O(log *n*) plus the call's length.
struct ParsedSource {
  /// The byte offset, line and column in the file of the scanned text's first byte.
  struct Origin {
    var offset = 0
    var line = 1
    var column = 1
  }

  /// Told of every scan, with the text scanned; lets tests check how often a pass scans (bound
  /// through `TestHooks`).
  static var parseObserver: (@Sendable (String) -> Void)? { TestHooks.value(ParseObserver.self) }

  enum ParseObserver: TestHookKey {
    typealias Value = @Sendable (String) -> Void
  }

  /// Where the scanned text stands in the file.
  let origin: Origin
  let bytes: [UInt8]
  /// The tokens, brackets matched; empty when the text does not scan.
  let tokens: [SwiftToken]
  /// Why the text does not scan, if it does not.
  let scanError: SwiftScanError?
  /// The offset of each line's first byte; a line ends at LF, CR LF or a lone CR.
  private let lineStarts: [Int]
  /// Whether a `#sourceLocation` makes `#line` and `#column` name other lines than the text's.
  private let movesLines: Bool

  /// Scans `text`, which stands in its file at `origin` (a whole file by default); lines and
  /// columns are the file's.
  init(_ text: String, origin: Origin = Origin()) {
    Self.parseObserver?(text)
    bytes = Array(text.utf8)
    self.origin = origin
    var starts = [0]
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
      if isLineBreak(bytes[index]) { starts.append(index + 1) }
      index += 1
    }
    lineStarts = starts
    do {
      tokens = try SwiftScanner.scan(bytes)
      scanError = nil
    } catch {
      tokens = []
      scanError = error
    }
    let scanned = bytes
    movesLines = tokens.contains { token in
      token.kind == .pound && scanned[token.start..<token.end].elementsEqual("#sourceLocation".utf8)
    }
  }

  /// The call whose argument list starts at `line` and `column` (the position `#line` and
  /// `#column` give a function's default arguments: just after the called expression and the
  /// spaces and comments that follow it on its line), or `nil` when none certainly does.
  func call(line: Int, column: Int) -> ScannedCall? {
    let localLine = line - origin.line + 1
    let localColumn = localLine == 1 ? column - origin.column + 1 : column
    guard !movesLines, localLine >= 1, localLine <= lineStarts.count, localColumn >= 1 else { return nil }
    let offset = lineStarts[localLine - 1] + localColumn - 1
    let lineEnd = localLine < lineStarts.count ? lineStarts[localLine] : bytes.count
    guard offset < lineEnd, let index = tokenIndex(startingAt: offset) else { return nil }
    return CallReader(source: self).call(openingAt: index)
  }

  /// The file's line and column of a byte offset in the scanned text.
  func location(of offset: Int) -> (line: Int, column: Int) {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return origin.fileLocation(line: low + 1, column: offset - lineStarts[low] + 1)
  }

  /// The file's line of a byte offset in the scanned text.
  func line(of offset: Int) -> Int {
    location(of: offset).line
  }

  /// The line of the first problem the scanner met, or `nil` when the text scans cleanly.
  var firstSyntaxErrorLine: Int? {
    scanError.map { line(of: $0.offset) }
  }

  /// The text of a byte range.
  func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  private func tokenIndex(startingAt offset: Int) -> Int? {
    var low = 0
    var high = tokens.count
    while low < high {
      let middle = (low + high) / 2
      if tokens[middle].start < offset { low = middle + 1 } else { high = middle }
    }
    return low < tokens.count && tokens[low].start == offset ? low : nil
  }
}

extension ParsedSource.Origin {
  /// The file's line and column of a line and column counted in the scanned text.
  func fileLocation(line: Int, column: Int) -> (line: Int, column: Int) {
    (self.line + line - 1, line == 1 ? self.column + column - 1 : column)
  }
}
