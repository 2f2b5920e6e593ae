import SwiftParser
import SwiftSyntax

/// One snapshot to write, in plain values, so that a caller can hand the same change to the
/// package's rewriter.
public struct OracleChange: Sendable, Equatable {
  public var line: Int
  public var column: Int
  public var trailingClosureLabel: String
  public var deprecatedTrailingClosureLabels: [String]
  public var trailingClosureOffset: Int
  public var expected: String?
  public var actual: String?

  public init(
    line: Int,
    column: Int,
    trailingClosureLabel: String,
    deprecatedTrailingClosureLabels: [String],
    trailingClosureOffset: Int,
    expected: String?,
    actual: String?
  ) {
    self.line = line
    self.column = column
    self.trailingClosureLabel = trailingClosureLabel
    self.deprecatedTrailingClosureLabels = deprecatedTrailingClosureLabels
    self.trailingClosureOffset = trailingClosureOffset
    self.expected = expected
    self.actual = actual
  }

  var recording: InlineSnapshotRecording {
    InlineSnapshotRecording(
      line: line,
      column: column,
      syntaxDescriptor: descriptor,
      expected: expected,
      actual: actual
    )
  }

  var descriptor: InlineSnapshotSyntaxDescriptor {
    InlineSnapshotSyntaxDescriptor(
      deprecatedTrailingClosureLabels: deprecatedTrailingClosureLabels,
      trailingClosureLabel: trailingClosureLabel,
      trailingClosureOffset: trailingClosureOffset
    )
  }
}

/// The swift-syntax rewriter, as the package used it before its own scanner.
public enum InlineSnapshotOracle {
  /// `source` with `changes` written, or the refusal's message.
  public static func rewrite(_ source: String, changes: [OracleChange]) -> Result<String, Error> {
    Result { () throws(InlineSnapshotRewriteError) in
      try rewriteInlineSnapshots(in: source, recordings: changes.map(\.recording))
    }.mapError { $0 as Error }
  }

  /// The `#line` and `#column` of every call in `source`, in source order, each once.
  public static func callPositions(in source: String) -> [(line: Int, column: Int)] {
    let tree = Parser.parse(source: source)
    let converter = SourceLocationConverter(fileName: "", tree: tree)
    let collector = CallCollector(viewMode: .sourceAccurate)
    collector.walk(tree)
    var seen = Set<[Int]>()
    return collector.calls.compactMap { call in
      let location = converter.location(for: call.calledExpression.endPosition)
      guard seen.insert([location.line, location.column]).inserted else { return nil }
      return (location.line, location.column)
    }
  }

  /// What the closure `change` names holds at its call: `.some(text)` for a single string literal
  /// (`nil` text for no closure), or `nil` when the oracle finds no call or no such slot.
  public static func currentText(for change: OracleChange, in source: String) -> String?? {
    let parsed = ParsedSource(source)
    guard let call = parsed.call(line: change.line, column: change.column),
      let slot = try? SnapshotSlot(of: call, descriptor: change.descriptor, line: change.line)
    else { return nil }
    guard let closure = slot.closure else { return .some(nil) }
    guard let text = literalText(of: closure) else { return nil }
    return .some(text)
  }

  /// Whether swift-syntax finds errors in `source`.
  public static func hasSyntaxErrors(_ source: String) -> Bool {
    ParsedSource(source).firstSyntaxErrorLine != nil
  }
}

private final class CallCollector: SyntaxVisitor {
  var calls: [FunctionCallExprSyntax] = []

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    calls.append(node)
    return .visitChildren
  }
}
