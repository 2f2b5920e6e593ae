/// One inline snapshot to write into a test's source, as a failure record describes it.
package struct InlineSnapshotChange: Sendable, Equatable {
  /// The call's `#line` and `#column`.
  package var line: Int
  package var column: Int
  package var trailingClosureLabel: String
  package var deprecatedTrailingClosureLabels: [String]
  package var trailingClosureOffset: Int
  /// The text the source must still hold (`nil`: no closure), or the change is refused.
  package var expected: String?
  /// The text to write (`nil` removes the closure).
  package var actual: String?

  package init(
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
      syntaxDescriptor: InlineSnapshotSyntaxDescriptor(
        deprecatedTrailingClosureLabels: deprecatedTrailingClosureLabels,
        trailingClosureLabel: trailingClosureLabel,
        trailingClosureOffset: trailingClosureOffset
      ),
      expected: expected,
      actual: actual
    )
  }
}

/// Why an inline snapshot could not be written: the source changed since the run, or it does
/// not parse.
package struct InlineSnapshotChangeError: Error, Equatable, CustomStringConvertible {
  package var description: String
}

/// `source` with `changes` written into it by the rewriter that `assertInlineSnapshot` records
/// with, in one pass, so the result is byte for byte what a local recording writes.
///
/// Throws, changing nothing, when any change cannot be made; ``refusal(of:in:)`` tells which.
package func applyInlineSnapshots(
  _ changes: [InlineSnapshotChange],
  to source: String
) throws(InlineSnapshotChangeError) -> String {
  do {
    return try rewriteInlineSnapshots(in: source, recordings: changes.map(\.recording))
  } catch {
    throw InlineSnapshotChangeError(description: error.description)
  }
}

/// Why `change` alone cannot be written into `source`, or `nil` when it can.
package func refusal(of change: InlineSnapshotChange, in source: String) -> String? {
  do {
    _ = try rewriteInlineSnapshots(in: source, recordings: [change.recording])
    return nil
  } catch {
    return error.description
  }
}
