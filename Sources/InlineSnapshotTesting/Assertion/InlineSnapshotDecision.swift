@_spi(Internals) import SnapshotTesting

/// What an inline assertion does with its snapshot, decided from the record mode and the two
/// texts alone.
enum InlineSnapshotDecision: Equatable {
  /// The snapshot matches.
  case pass
  /// The source has no snapshot; it is recorded.
  case recordMissing
  /// The source has no snapshot and nothing may record it: the mode is `.never`, or this is a CI
  /// run with no mode configured.
  case missing(onCI: Bool)
  /// Record mode `.all`: recorded whatever it was; `difference` is `nil` when it matched.
  case recordAll(difference: String?)
  /// The snapshot differs; `rerecorded` in record mode `.failed`.
  case mismatch(difference: String, rerecorded: Bool)

  /// Whether the snapshot is written into the source.
  var records: Bool {
    switch self {
    case .recordMissing, .recordAll: return true
    case .mismatch(_, let rerecorded): return rerecorded
    case .pass, .missing: return false
    }
  }
}

/// Decides what an inline assertion does. `expected` is the snapshot in the source (`nil` when
/// there is none) and `actual` the new one (`nil` when the value was `nil`).
func decideInlineSnapshot(
  expected: String?,
  actual: String?,
  recordMode: ResolvedRecordMode,
  diffing: Diffing<String>
) -> InlineSnapshotDecision {
  let difference = { (old: String) in diffing.diffV2(old, actual ?? "")?.0 }
  if recordMode.mode == .all {
    return .recordAll(difference: expected == actual ? nil : difference(expected ?? ""))
  }
  guard let expected else {
    if recordMode.mode == .never { return .missing(onCI: false) }
    if !recordMode.writesMissingReferences { return .missing(onCI: true) }
    return .recordMissing
  }
  guard let found = difference(expected) else { return .pass }
  return .mismatch(difference: found, rerecorded: recordMode.mode == .failed)
}

/// The failure message for a decision, or `nil` when the assertion passes.
func inlineSnapshotFailureMessage(
  _ decision: InlineSnapshotDecision,
  actual: String?,
  customMessage: String,
  syntaxDescriptor: InlineSnapshotSyntaxDescriptor,
  function: String,
  recordingError: InlineSnapshotWriteError?
) -> String? {
  let actualText = actual.map { " Actual: …\n\n\($0.indenting(by: 2))" } ?? ""
  switch decision {
  case .pass:
    return nil

  case .missing(let onCI):
    guard onCI else { return "No expected value to assert against.\(actualText)" }
    return """
      No expected value to assert against, and none was recorded: this is a CI run (the CI \
      environment variable is set) and no record mode is configured, so that a retried job can \
      never pass on a snapshot it wrote itself. Record the snapshot locally and commit it, or set \
      SNAPSHOT_TESTING_RECORD=missing to record on CI on purpose.\(actualText)
      """

  case .recordMissing, .recordAll:
    if let recordingError {
      return "\(recordingError.description)\(actualText)"
    }
    var message =
      syntaxDescriptor.trailingClosureLabel
        == InlineSnapshotSyntaxDescriptor.defaultTrailingClosureLabel
      ? "Automatically recorded a new snapshot."
      : #"Automatically recorded a new snapshot for "\#(syntaxDescriptor.trailingClosureLabel)"."#
    if case .recordAll(let difference?) = decision {
      message += " Difference: …\n\n\(difference.indenting(by: 2))"
    } else if case .recordMissing = decision, let actual {
      message += " Actual: …\n\n\(actual.indenting(by: 2))"
    }
    return """
      \(message)

      Re-run "\(function)" to assert against the newly-recorded snapshot. It is written into the \
      source file when the test process exits.
      """

  case .mismatch(let difference, let rerecorded):
    var message = """
      \(customMessage.isEmpty ? "Snapshot did not match. Difference: …" : customMessage)

      \(difference.indenting(by: 2))
      """
    if rerecorded {
      if let recordingError {
        message += "\n\n\(recordingError.description)"
      } else {
        message += "\n\nA new snapshot was automatically recorded."
      }
    }
    return message
  }
}

extension String {
  /// Every non-empty line indented by `count` spaces.
  func indenting(by count: Int) -> String {
    let prefix = String(repeating: " ", count: count)
    return unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : prefix + String(String.UnicodeScalarView($0)) }
      .joined(separator: "\n")
  }
}
