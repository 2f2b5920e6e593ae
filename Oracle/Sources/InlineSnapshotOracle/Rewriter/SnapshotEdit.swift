import SwiftSyntax

/// The edit that writes `closureText` into `slot` of `call`, or removes the slot's closure when
/// `closureText` is `nil`; `nil` when there is nothing to change.
func snapshotEdit(
  writing closureText: String?,
  into slot: SnapshotSlot,
  of call: FunctionCallExprSyntax,
  recording: InlineSnapshotRecording
) throws(InlineSnapshotRewriteError) -> TextEdit? {
  let label = recording.syntaxDescriptor.trailingClosureLabel
  guard let closureText else { return removal(of: slot, from: call) }
  switch slot {
  case .argument(let argument, _):
    return TextEdit(
      from: argument.positionAfterSkippingLeadingTrivia,
      to: argument.expression.endPositionBeforeTrailingTrivia,
      replacement: "\(label): \(closureText)"
    )
  case .trailingClosure(let closure):
    return TextEdit(replacing: closure, with: closureText)
  case .additionalClosure(let element):
    return TextEdit(replacing: element, with: "\(label): \(closureText)")
  case .missingTrailingClosure:
    // Empty parentheses stay: removing them would move the call's column, which later closures of
    // the same call are found by.
    let end =
      call.rightParen?.endPositionBeforeTrailingTrivia
      ?? call.calledExpression.endPositionBeforeTrailingTrivia
    return TextEdit(from: end, to: end, replacement: " " + closureText)
  case .missingAdditionalClosure(let index):
    let additional = Array(call.additionalTrailingClosures)
    if index < additional.count {
      let start = additional[index].positionAfterSkippingLeadingTrivia
      return TextEdit(from: start, to: start, replacement: "\(label): \(closureText) ")
    }
    guard
      let end = additional.last?.endPositionBeforeTrailingTrivia
        ?? call.trailingClosure?.endPositionBeforeTrailingTrivia
    else {
      throw .noClosureToFollow(
        line: recording.line,
        label: label,
        offset: recording.syntaxDescriptor.trailingClosureOffset
      )
    }
    return TextEdit(from: end, to: end, replacement: " \(label): \(closureText)")
  }
}

/// The edit that removes the closure in `slot`, or `nil` when it holds none.
private func removal(of slot: SnapshotSlot, from call: FunctionCallExprSyntax) -> TextEdit? {
  switch slot {
  case .argument(let argument, _):
    return removal(of: argument, in: call)
  case .trailingClosure(let closure):
    if let next = call.additionalTrailingClosures.first {
      // The next labelled closure becomes the first trailing closure, which has no label.
      return TextEdit(
        from: closure.positionAfterSkippingLeadingTrivia,
        to: next.closure.positionAfterSkippingLeadingTrivia,
        replacement: ""
      )
    }
    let end = call.rightParen?.endPositionBeforeTrailingTrivia
    return TextEdit(
      from: end ?? call.calledExpression.endPositionBeforeTrailingTrivia,
      to: closure.endPositionBeforeTrailingTrivia,
      replacement: end == nil ? "()" : ""
    )
  case .additionalClosure(let element):
    let previousEnd =
      call.additionalTrailingClosures
      .last { $0.endPosition <= element.position }?.endPositionBeforeTrailingTrivia
      ?? call.trailingClosure?.endPositionBeforeTrailingTrivia
      ?? element.positionAfterSkippingLeadingTrivia
    return TextEdit(
      from: previousEnd,
      to: element.endPositionBeforeTrailingTrivia,
      replacement: ""
    )
  case .missingTrailingClosure, .missingAdditionalClosure:
    return nil
  }
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

/// A replacement of a byte range of a call's or a file's text.
struct TextEdit {
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

  /// Applies the edit to `source`, where the edited tree's position 0 is at byte `offset`.
  func apply(to source: String, at offset: Int = 0) -> String {
    var bytes = Array(source.utf8)
    let lower = min(offset + from.utf8Offset, bytes.count)
    let upper = min(offset + to.utf8Offset, bytes.count)
    bytes.replaceSubrange(lower..<upper, with: Array(replacement.utf8))
    return String(decoding: bytes, as: UTF8.self)
  }
}
