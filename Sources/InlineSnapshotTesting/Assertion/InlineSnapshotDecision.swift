@_spi(Internals) import SnapshotTesting

/// What an inline assertion does with its snapshot, decided from the record mode and the two
/// texts alone.
enum InlineSnapshotDecision: Equatable {
  /// The snapshot matches.
  case pass
  /// The source has no snapshot; it is recorded. `difference` is the new text diffed against an
  /// empty one, `nil` when both are empty.
  case recordMissing(difference: String?)
  /// The source has no snapshot and nothing may record it: the mode is `.never`, or this is a CI
  /// run with no mode configured.
  case missing(onCI: Bool)
  /// Record mode `.all`: recorded whatever it was; `difference` is `nil` when it matched. A
  /// missing snapshot is diffed as an empty one.
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
  // Upstream's diffs: a missing snapshot or value compares as empty text.
  let difference = { (old: String) in diffing.diffV2(old, actual ?? "")?.0 }
  if recordMode.mode == .all {
    return .recordAll(difference: difference(expected ?? ""))
  }
  guard let expected else {
    if recordMode.mode == .never { return .missing(onCI: false) }
    if !recordMode.writesMissingReferences { return .missing(onCI: true) }
    return .recordMissing(difference: difference(""))
  }
  guard let found = difference(expected) else { return .pass }
  return .mismatch(difference: found, rerecorded: recordMode.mode == .failed)
}

/// The failure message for a decision, or `nil` when the assertion passes.
///
/// Every message upstream also reports is worded as upstream's, byte for byte, because tools and
/// tests match on it; the cases only this library has (a CI run that records nothing, a recording
/// that cannot be written) keep upstream's shape: a headline, the indented text, then what to do.
func inlineSnapshotFailureMessage(
  _ decision: InlineSnapshotDecision,
  actual: String?,
  customMessage: String,
  syntaxDescriptor: InlineSnapshotSyntaxDescriptor,
  function: String,
  recordingError: InlineSnapshotWriteError?
) -> String? {
  let label = syntaxDescriptor.trailingClosureLabel
  let isDefaultLabel = label == InlineSnapshotSyntaxDescriptor.defaultTrailingClosureLabel
  switch decision {
  case .pass:
    return nil

  case .missing(let onCI):
    var message = "No expected value to assert against."
    if let actual {
      message += " Actual: …\n\n\(actual.indenting(by: 2))"
    }
    guard onCI else { return message }
    return """
      \(message)

      Nothing was recorded: this is a CI run (the CI environment variable is set) and no record \
      mode is configured, so that a retried job can never pass on a snapshot it wrote itself. \
      Record the snapshot locally and commit it, or set SNAPSHOT_TESTING_RECORD=missing to record \
      on CI on purpose.
      """

  case .recordMissing(let difference), .recordAll(let difference):
    var message: String
    if recordingError == nil {
      message =
        isDefaultLabel
        ? "Automatically recorded a new snapshot."
        : #"Automatically recorded a new snapshot for "\#(label)"."#
    } else {
      message =
        isDefaultLabel
        ? "Could not record a new snapshot."
        : #"Could not record a new snapshot for "\#(label)"."#
    }
    if let difference {
      message += " Difference: …\n\n\(difference.indenting(by: 2))"
    }
    let advice =
      recordingError?.description
      ?? #"Re-run "\#(function)" to assert against the newly-recorded snapshot."#
    return "\(message)\n\n\(advice)"

  case .mismatch(let difference, let rerecorded):
    var message = """
      \(customMessage.isEmpty ? "Snapshot did not match. Difference: …" : customMessage)

      \(difference.indenting(by: 2))
      """
    if rerecorded {
      message +=
        "\n\n\(recordingError?.description ?? "A new snapshot was automatically recorded.")"
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
