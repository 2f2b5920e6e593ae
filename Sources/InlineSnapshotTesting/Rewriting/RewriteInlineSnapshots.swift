import SwiftParser
import SwiftSyntax

/// Writes inline snapshots into a test's source text and returns the new text.
///
/// A pure function of its inputs: it never touches the disk, so every rule below is tested on
/// fixtures. Each recording names a call by the `#line` and `#column` the running test was
/// compiled with, and carries the snapshot that test saw (`expected`). The text is refused,
/// whole, when
///
/// - it does not parse, or no call starts its arguments at a recording's line and column;
/// - the closure found there does not return `expected` (or exists when `expected` is `nil`, or
///   is missing when it is not): the source has changed since the test was compiled;
/// - the result would not parse or would not read back as the recorded text.
///
/// Only the snapshot closures change; every other byte, comments and formatting included, stays.
///
/// - Complexity: O(*n* · *r*) for a source of *n* bytes and *r* recordings (it parses once per
///   recording, so that each one sees the previous edits).
func rewriteInlineSnapshots(
  in source: String,
  recordings: [InlineSnapshotRecording]
) throws(InlineSnapshotRewriteError) -> String {
  let original = Parser.parse(source: source)
  if let errorLine = firstSyntaxErrorLine(in: original) {
    throw .unparsable(line: errorLine)
  }
  let style = SourceStyle(source)
  var text = source
  // Later calls first: an edit only changes text after its call's argument list starts, so the
  // lines and columns of the calls still to come stay valid.
  for recording in recordings.sorted(by: { $0.slot < $1.slot }) {
    text = try rewrite(text, recording: recording, style: style)
  }
  if text != source, firstSyntaxErrorLine(in: Parser.parse(source: text)) != nil {
    throw .producedInvalidSource
  }
  return text
}

/// Applies one recording, then checks that the closure reads back as the recorded text.
private func rewrite(
  _ source: String,
  recording: InlineSnapshotRecording,
  style: SourceStyle
) throws(InlineSnapshotRewriteError) -> String {
  let sourceFile = Parser.parse(source: source)
  let converter = SourceLocationConverter(fileName: "", tree: sourceFile)
  guard
    let call = findCall(
      in: sourceFile,
      converter: converter,
      line: recording.line,
      column: recording.column
    )
  else {
    throw .callNotFound(line: recording.line, column: recording.column)
  }
  let descriptor = recording.syntaxDescriptor
  let slot = try SnapshotSlot(of: call, descriptor: descriptor, line: recording.line)
  try checkUnchanged(slot, recording: recording, normalizingCRLF: style.newline == "\r\n")
  guard recording.expected != recording.actual else { return source }

  let label = descriptor.trailingClosureLabel
  let closureText = recording.actual.map {
    snapshotClosureText(
      $0,
      indentation: style.indentation(ofLine: recording.line, in: source),
      indentUnit: style.indentUnit,
      newline: style.newline
    )
  }
  let edit: TextEdit?
  switch slot {
  case .argument(let argument, _):
    if let closureText {
      edit = TextEdit(
        from: argument.positionAfterSkippingLeadingTrivia,
        to: argument.expression.endPositionBeforeTrailingTrivia,
        replacement: "\(label): \(closureText)"
      )
    } else {
      edit = removal(of: argument, in: call)
    }

  case .trailingClosure(let closure):
    if let closureText {
      edit = TextEdit(replacing: closure, with: closureText)
    } else if let next = call.additionalTrailingClosures.first {
      // The next labelled closure becomes the first trailing closure, which has no label.
      edit = TextEdit(
        from: closure.positionAfterSkippingLeadingTrivia,
        to: next.closure.positionAfterSkippingLeadingTrivia,
        replacement: ""
      )
    } else {
      let end = call.rightParen?.endPositionBeforeTrailingTrivia
      edit = TextEdit(
        from: end ?? call.calledExpression.endPositionBeforeTrailingTrivia,
        to: closure.endPositionBeforeTrailingTrivia,
        replacement: end == nil ? "()" : ""
      )
    }

  case .additionalClosure(let element):
    if let closureText {
      edit = TextEdit(replacing: element, with: "\(label): \(closureText)")
    } else {
      let previousEnd =
        call.additionalTrailingClosures
        .last { $0.endPosition <= element.position }?.endPositionBeforeTrailingTrivia
        ?? call.trailingClosure?.endPositionBeforeTrailingTrivia
        ?? element.positionAfterSkippingLeadingTrivia
      edit = TextEdit(
        from: previousEnd,
        to: element.endPositionBeforeTrailingTrivia,
        replacement: ""
      )
    }

  case .missingTrailingClosure:
    // Empty parentheses stay: removing them would move the call's column, which later closures of
    // the same call are found by.
    edit = closureText.map { closureText in
      let end =
        call.rightParen?.endPositionBeforeTrailingTrivia
        ?? call.calledExpression.endPositionBeforeTrailingTrivia
      return TextEdit(from: end, to: end, replacement: " " + closureText)
    }

  case .missingAdditionalClosure(let index):
    guard let closureText else {
      edit = nil
      break
    }
    let additional = Array(call.additionalTrailingClosures)
    if index < additional.count {
      let start = additional[index].positionAfterSkippingLeadingTrivia
      edit = TextEdit(from: start, to: start, replacement: "\(label): \(closureText) ")
    } else if let end = additional.last?.endPositionBeforeTrailingTrivia
      ?? call.trailingClosure?.endPositionBeforeTrailingTrivia
    {
      edit = TextEdit(from: end, to: end, replacement: " \(label): \(closureText)")
    } else {
      throw .noClosureToFollow(
        line: recording.line,
        label: label,
        offset: descriptor.trailingClosureOffset
      )
    }
  }
  guard let edit else { return source }
  let rewritten = edit.apply(to: source)
  try checkReadsBack(rewritten, recording: recording, normalizingCRLF: style.newline == "\r\n")
  return rewritten
}

/// Refuses to write when the closure in the source is not the one the test was compiled with.
private func checkUnchanged(
  _ slot: SnapshotSlot,
  recording: InlineSnapshotRecording,
  normalizingCRLF: Bool
) throws(InlineSnapshotRewriteError) {
  let label = recording.syntaxDescriptor.trailingClosureLabel
  guard let closure = slot.closure else {
    if recording.expected != nil {
      throw .closureChanged(
        line: recording.line,
        label: label,
        detail: "is missing from the source, but the running test had one"
      )
    }
    return
  }
  guard let expected = recording.expected else {
    throw .closureChanged(
      line: recording.line,
      label: label,
      detail: "is in the source, but the running test had none"
    )
  }
  // A closure that computes its text cannot be compared; the file-level checks still apply.
  guard var text = literalText(of: closure) else { return }
  if normalizingCRLF { text = text.replacingCRLF() }
  if text != expected {
    throw .closureChanged(
      line: recording.line,
      label: label,
      detail: "no longer returns the text the running test was compiled with"
    )
  }
}

/// Checks that the new closure parses back to exactly the recorded text.
private func checkReadsBack(
  _ source: String,
  recording: InlineSnapshotRecording,
  normalizingCRLF: Bool
) throws(InlineSnapshotRewriteError) {
  let sourceFile = Parser.parse(source: source)
  let converter = SourceLocationConverter(fileName: "", tree: sourceFile)
  guard let actual = recording.actual else { return }
  guard
    let call = findCall(
      in: sourceFile,
      converter: converter,
      line: recording.line,
      column: recording.column
    ),
    let closure = try? SnapshotSlot(
      of: call,
      descriptor: recording.syntaxDescriptor,
      line: recording.line
    ).closure,
    var text = literalText(of: closure)
  else {
    throw .producedInvalidSource
  }
  if normalizingCRLF { text = text.replacingCRLF() }
  guard text == actual else { throw .producedInvalidSource }
}

/// The edit that removes an argument and the comma that separates it from its neighbours.
private func removal(of argument: LabeledExprSyntax, in call: FunctionCallExprSyntax) -> TextEdit {
  let arguments = Array(call.arguments)
  guard let index = arguments.firstIndex(where: { $0.id == argument.id }) else {
    return TextEdit(replacing: argument, with: "")
  }
  if index > 0 {
    // `f(a, { … })` → `f(a)`: from the end of the previous argument's expression.
    return TextEdit(
      from: arguments[index - 1].expression.endPositionBeforeTrailingTrivia,
      to: argument.endPositionBeforeTrailingTrivia,
      replacement: ""
    )
  }
  if index + 1 < arguments.count {
    return TextEdit(
      from: argument.positionAfterSkippingLeadingTrivia,
      to: arguments[index + 1].positionAfterSkippingLeadingTrivia,
      replacement: ""
    )
  }
  return TextEdit(replacing: argument, with: "")
}

/// The index of the first line with a syntax error, or `nil` when the file parses cleanly.
func firstSyntaxErrorLine(in sourceFile: SourceFileSyntax) -> Int? {
  guard sourceFile.hasError else { return nil }
  let finder = SyntaxErrorFinder(viewMode: .all)
  finder.walk(sourceFile)
  let converter = SourceLocationConverter(fileName: "", tree: sourceFile)
  return converter.location(for: finder.position ?? sourceFile.endPosition).line
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

/// A replacement of a byte range of the source.
private struct TextEdit {
  var from: AbsolutePosition
  var to: AbsolutePosition
  var replacement: String

  init(from: AbsolutePosition, to: AbsolutePosition, replacement: String) {
    self.from = from
    self.to = max(from, to)
    self.replacement = replacement
  }

  init(replacing node: some SyntaxProtocol, with replacement: String) {
    self.init(
      from: node.positionAfterSkippingLeadingTrivia,
      to: node.endPositionBeforeTrailingTrivia,
      replacement: replacement
    )
  }

  func apply(to source: String) -> String {
    var bytes = Array(source.utf8)
    let lower = min(from.utf8Offset, bytes.count)
    let upper = min(to.utf8Offset, bytes.count)
    bytes.replaceSubrange(lower..<upper, with: Array(replacement.utf8))
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// How the file is written: the snapshot closures follow it.
struct SourceStyle {
  /// One level of indentation: the whitespace of the first indented line, else four spaces.
  var indentUnit: String
  /// `"\r\n"` when the file's first line ends that way, else `"\n"`.
  var newline: String

  init(_ source: String) {
    newline =
      source.utf8.firstIndex(of: UInt8(ascii: "\n")).map { index in
        index > source.utf8.startIndex && source.utf8[source.utf8.index(before: index)] == 0x0D
          ? "\r\n" : "\n"
      } ?? "\n"
    indentUnit = "    "
    for line in source.unicodeScalars.split(separator: "\n") {
      let indentation = line.prefix { $0 == " " || $0 == "\t" }
      let rest = line.dropFirst(indentation.count)
      // A block comment's ` * ` continuation lines are not indentation.
      guard !indentation.isEmpty, let first = rest.first, first != "*", first != "\r" else {
        continue
      }
      indentUnit = String(String.UnicodeScalarView(indentation))
      break
    }
  }

  /// The leading spaces and tabs of the 1-based line `line`.
  func indentation(ofLine line: Int, in source: String) -> String {
    var current = 1
    var utf8 = source.utf8[...]
    while current < line, let newlineIndex = utf8.firstIndex(of: UInt8(ascii: "\n")) {
      utf8 = utf8[utf8.index(after: newlineIndex)...]
      current += 1
    }
    let indentation = utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    return String(decoding: indentation, as: UTF8.self)
  }
}

extension String {
  /// The text with every CR LF pair turned into a single LF; lone carriage returns stay.
  func replacingCRLF() -> String {
    var result = ""
    var pendingCarriageReturn = false
    for scalar in unicodeScalars {
      if pendingCarriageReturn, scalar != "\n" { result.unicodeScalars.append("\r") }
      pendingCarriageReturn = scalar == "\r"
      if !pendingCarriageReturn { result.unicodeScalars.append(scalar) }
    }
    if pendingCarriageReturn { result.unicodeScalars.append("\r") }
    return result
  }
}
