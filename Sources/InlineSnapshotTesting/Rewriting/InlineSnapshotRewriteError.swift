/// Why a test's source file was left untouched.
struct InlineSnapshotRewriteError: Error, Equatable, CustomStringConvertible {
  var description: String

  static func unparsable(line: Int) -> Self {
    Self(
      description: """
        The test's source does not parse (the first error is on line \(line)), so it has changed \
        since the test was compiled. The snapshot was not written; re-run the test.
        """
    )
  }

  static func callNotFound(line: Int, column: Int) -> Self {
    Self(
      description: """
        No call starts its arguments at line \(line), column \(column) of the test's source, so \
        the file has changed since the test was compiled. The snapshot was not written; re-run \
        the test.
        """
    )
  }

  static func unreadableCall(
    line: Int,
    column: Int,
    shape: String,
    shapeLine: Int,
    shapeColumn: Int
  ) -> Self {
    Self(
      description: """
        The call whose arguments start at line \(line), column \(column) of the test's source has \
        a shape the inline snapshot rewriter does not read with certainty: \(shape), at line \
        \(shapeLine), column \(shapeColumn). The snapshot was not written; write it into the \
        source by hand, or write the call without that shape.
        """
    )
  }

  static func closureChanged(line: Int, label: String, detail: String) -> Self {
    Self(
      description: """
        The "\(label)" snapshot of the call on line \(line) \(detail), so the file has changed \
        since the test was compiled. The snapshot was not written; re-run the test.
        """
    )
  }

  static func noClosureToFollow(line: Int, label: String, offset: Int) -> Self {
    Self(
      description: """
        The call on line \(line) has no trailing closure for the "\(label)" snapshot to follow \
        (trailing closure offset \(offset)). Check the helper's InlineSnapshotSyntaxDescriptor.
        """
    )
  }

  static func negativeOffset(line: Int, offset: Int) -> Self {
    Self(
      description: """
        The call on line \(line) has no closure at trailing closure offset \(offset). Check the \
        helper's InlineSnapshotSyntaxDescriptor.
        """
    )
  }

  static var producedInvalidSource: Self {
    Self(
      description: """
        Writing the snapshot would have produced source that does not parse; the file was left \
        untouched. Please report this as a bug, with the snapshot's text.
        """
    )
  }

  static func conflictingValues(line: Int, label: String) -> Self {
    Self(
      description: """
        The "\(label)" snapshot of the call on line \(line) was recorded more than once in this \
        run, with different values; only the first one is written. A call that runs several \
        times (in a loop, a helper or a parameterized test) must produce the same text each time.
        """
    )
  }
}
