/// The edit that writes `closureText` into `slot` of `call`, or removes the slot's closure when
/// `closureText` is `nil`; `nil` when there is nothing to change.
func snapshotEdit(
  writing closureText: String?,
  into slot: SnapshotSlot,
  of call: ScannedCall,
  recording: InlineSnapshotRecording
) throws(InlineSnapshotRewriteError) -> TextEdit? {
  let label = recording.syntaxDescriptor.trailingClosureLabel
  guard let closureText else { return removal(of: slot, from: call) }
  switch slot {
  case .argument(let argument, _):
    return TextEdit(
      from: argument.start,
      to: argument.expressionEnd,
      replacement: "\(label): \(closureText)"
    )
  case .trailingClosure(let closure):
    return TextEdit(from: closure.start, to: closure.end, replacement: closureText)
  case .additionalClosure(let element):
    return TextEdit(from: element.start, to: element.closure.end, replacement: "\(label): \(closureText)")
  case .missingTrailingClosure:
    // Empty parentheses stay: removing them would move the call's column, which later closures of
    // the same call are found by.
    let end = call.rightParenEnd ?? call.calleeEnd
    return TextEdit(from: end, to: end, replacement: " " + closureText)
  case .missingAdditionalClosure(let index):
    let additional = call.additionalTrailingClosures
    if index < additional.count {
      let start = additional[index].start
      return TextEdit(from: start, to: start, replacement: "\(label): \(closureText) ")
    }
    guard
      let end = additional.last?.closure.end ?? call.trailingClosure?.end
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
private func removal(of slot: SnapshotSlot, from call: ScannedCall) -> TextEdit? {
  switch slot {
  case .argument(let argument, _):
    return removal(of: argument, in: call)
  case .trailingClosure(let closure):
    if let next = call.additionalTrailingClosures.first {
      // The next labelled closure becomes the first trailing closure, which has no label.
      return TextEdit(
        from: closure.start,
        to: next.closure.start,
        replacement: ""
      )
    }
    let end = call.rightParenEnd
    return TextEdit(
      from: end ?? call.calleeEnd,
      to: closure.end,
      replacement: end == nil ? "()" : ""
    )
  case .additionalClosure(let element):
    let previousEnd =
      call.additionalTrailingClosures.last { $0.closure.end <= element.start }?.closure.end
      ?? call.trailingClosure?.end
      ?? element.start
    return TextEdit(
      from: previousEnd,
      to: element.closure.end,
      replacement: ""
    )
  case .missingTrailingClosure, .missingAdditionalClosure:
    return nil
  }
}

/// The edit that removes an argument and the comma that separates it from its neighbours.
private func removal(of argument: ScannedCall.Argument, in call: ScannedCall) -> TextEdit {
  let arguments = call.arguments
  guard let index = arguments.firstIndex(where: { $0.start == argument.start }) else {
    return TextEdit(from: argument.start, to: argument.end, replacement: "")
  }
  if index > 0 {
    // `f(a, { … })` → `f(a)`: from the end of the previous argument's expression.
    return TextEdit(
      from: arguments[index - 1].expressionEnd,
      to: argument.end,
      replacement: ""
    )
  }
  if index + 1 < arguments.count {
    return TextEdit(
      from: argument.start,
      to: arguments[index + 1].start,
      replacement: ""
    )
  }
  return TextEdit(from: argument.start, to: argument.end, replacement: "")
}

/// A replacement of a byte range of a call's or a file's text.
struct TextEdit {
  /// Byte offsets in the scanned text.
  var from: Int
  var to: Int
  var replacement: String

  init(from: Int, to: Int, replacement: String) {
    self.from = from
    self.to = max(from, to)
    self.replacement = replacement
  }

  /// Applies the edit to `source`, where the scanned text's offset 0 is at byte `offset`.
  func apply(to source: String, at offset: Int = 0) -> String {
    var bytes = Array(source.utf8)
    let lower = min(offset + from, bytes.count)
    let upper = min(offset + to, bytes.count)
    bytes.replaceSubrange(lower..<upper, with: Array(replacement.utf8))
    return String(decoding: bytes, as: UTF8.self)
  }
}
