import SwiftParser
import SwiftSyntax

/// A test's source, or the text of one call in it, parsed once: the syntax tree, its lines, and
/// its calls by the position `#line` and `#column` give them.
///
/// Every step of a pass over a file reads the same parse: finding the recorded calls, checking and
/// writing their closures, following them into a file another process rewrote.
///
/// ```swift
/// let source = ParsedSource(text)
/// let call = source.call(line: recording.line, column: recording.column)
/// ```
///
/// - Complexity: O(*n*) to build for *n* bytes; each lookup is O(1) or O(log *n*).
struct ParsedSource {
  /// The byte offset, line and column in the file of the parsed text's first byte.
  struct Origin {
    var offset = 0
    var line = 1
    var column = 1
  }

  /// The parsed text's syntax tree; its positions count from ``origin``.
  let tree: SourceFileSyntax
  /// Where the parsed text stands in the file.
  let origin: Origin
  private let converter: SourceLocationConverter
  private let calls: [CallPosition: FunctionCallExprSyntax]

  /// Parses `text`, which stands in its file at `origin` (a whole file by default); lines and
  /// columns are the file's.
  init(_ text: String, origin: Origin = Origin()) {
    tree = Parser.parse(source: text)
    converter = SourceLocationConverter(fileName: "", tree: tree)
    self.origin = origin
    calls = CallIndexer.calls(in: tree, converter: converter, origin: origin)
  }

  /// The call whose argument list starts at `line` and `column` (the position `#line` and
  /// `#column` give a function's default arguments: just after the called expression and its
  /// whitespace); the outermost one should several start there.
  func call(line: Int, column: Int) -> FunctionCallExprSyntax? {
    calls[CallPosition(line: line, column: column)]
  }

  /// The file's line and column of a position in ``tree``.
  func location(of position: AbsolutePosition) -> (line: Int, column: Int) {
    let location = converter.location(for: position)
    return origin.fileLocation(line: location.line, column: location.column)
  }

  /// The file's line of a position in ``tree``.
  func line(of position: AbsolutePosition) -> Int {
    location(of: position).line
  }

  /// The line of the first syntax error, or `nil` when the text parses cleanly.
  var firstSyntaxErrorLine: Int? {
    guard tree.hasError else { return nil }
    let finder = SyntaxErrorFinder(viewMode: .all)
    finder.walk(tree)
    return line(of: finder.position ?? tree.endPosition)
  }
}

extension ParsedSource.Origin {
  /// The file's line and column of a line and column counted in the parsed text.
  func fileLocation(line: Int, column: Int) -> (line: Int, column: Int) {
    (self.line + line - 1, line == 1 ? self.column + column - 1 : column)
  }
}

/// A call's `#line` and `#column`.
private struct CallPosition: Hashable {
  var line: Int
  var column: Int
}

/// Collects every call by its position, in one walk of the tree.
private final class CallIndexer: SyntaxVisitor {
  private let converter: SourceLocationConverter
  private let origin: ParsedSource.Origin
  private var calls: [CallPosition: FunctionCallExprSyntax] = [:]

  static func calls(
    in tree: SourceFileSyntax,
    converter: SourceLocationConverter,
    origin: ParsedSource.Origin
  ) -> [CallPosition: FunctionCallExprSyntax] {
    let indexer = CallIndexer(converter: converter, origin: origin)
    indexer.walk(tree)
    return indexer.calls
  }

  private init(converter: SourceLocationConverter, origin: ParsedSource.Origin) {
    self.converter = converter
    self.origin = origin
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    let start = converter.location(for: node.calledExpression.endPosition)
    let file = origin.fileLocation(line: start.line, column: start.column)
    let position = CallPosition(line: file.line, column: file.column)
    // Visited outside in, so the outermost call that starts there keeps the position.
    if calls[position] == nil { calls[position] = node }
    return .visitChildren
  }
}

private final class SyntaxErrorFinder: SyntaxVisitor {
  var position: AbsolutePosition?

  override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
    if position == nil { position = node.positionAfterSkippingLeadingTrivia }
    return .skipChildren
  }

  override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
    if position == nil, token.presence == .missing { position = token.position }
    return .skipChildren
  }
}
