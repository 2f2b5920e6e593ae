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
  /// The offset of a `#sourceLocation`, which makes `#line` and `#column` name other lines than
  /// the text's, if the text has one.
  private let sourceLocationDirective: Int?

  /// Scans `text`, which stands in its file at `origin` (a whole file by default); lines and
  /// columns are the file's.
  init(_ text: String, origin: Origin = Origin()) {
    self.init(Array(text.utf8)[...], origin: origin)
  }

  /// Scans the UTF-8 text `text`, which stands in its file at `origin`.
  init(_ text: ArraySlice<UInt8>, origin: Origin = Origin()) {
    if let observer = Self.parseObserver { observer(String(decoding: text, as: UTF8.self)) }
    bytes = Array(text)
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
    sourceLocationDirective = tokens.first { token in
      token.kind == .pound && scanned[token.start..<token.end].elementsEqual("#sourceLocation".utf8)
    }?.start
  }

  /// The call whose argument list starts at `line` and `column` (the position `#line` and
  /// `#column` give a function's default arguments: just after the called expression and the
  /// spaces and comments that follow it on its line), or `nil` when none certainly does.
  func call(line: Int, column: Int) -> ScannedCall? {
    if case .found(let call) = lookUpCall(line: line, column: column) { return call }
    return nil
  }

  /// What stands at `line` and `column`: the call whose arguments start there, nothing that could
  /// start a call's arguments, or a call the reader refuses and why.
  func lookUpCall(line: Int, column: Int) -> CallLookup {
    let localLine = line - origin.line + 1
    let localColumn = localLine == 1 ? column - origin.column + 1 : column
    guard localLine >= 1, localLine <= lineStarts.count, localColumn >= 1 else { return .nothing }
    let offset = lineStarts[localLine - 1] + localColumn - 1
    let lineEnd = localLine < lineStarts.count ? lineStarts[localLine] : bytes.count
    guard offset < lineEnd, let index = tokenIndex(startingAt: offset),
      tokens[index].kind == .punctuation,
      bytes[offset] == UInt8(ascii: "(") || bytes[offset] == UInt8(ascii: "{")
    else { return .nothing }
    if let directive = sourceLocationDirective {
      let location = self.location(of: directive)
      return .refused(
        shape: "a `#sourceLocation` directive, which makes `#line` name other lines",
        line: location.line,
        column: location.column
      )
    }
    do {
      return .found(try CallReader(source: self).read(openingAt: index))
    } catch {
      let location = self.location(of: error.offset)
      return .refused(shape: error.shape, line: location.line, column: location.column)
    }
  }

  /// What ``lookUpCall(line:column:)`` finds.
  enum CallLookup {
    case found(ScannedCall)
    /// No `(` or `{` starts there: the source is not the one the test was compiled from.
    case nothing
    /// A call starts its arguments there, in a shape the reader does not read with certainty.
    case refused(shape: String, line: Int, column: Int)
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

  /// The leading spaces and tabs of the file's line `line`, which must be in the scanned text.
  func indentation(ofLine line: Int) -> String {
    let local = line - origin.line
    guard local >= 0, local < lineStarts.count else { return "" }
    let indentation = bytes[lineStarts[local]...].prefix {
      $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t")
    }
    return String(decoding: indentation, as: UTF8.self)
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
