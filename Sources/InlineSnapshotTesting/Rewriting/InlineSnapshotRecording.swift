/// A snapshot to write into a test's source: which closure of which call, what the compiled test
/// saw there and what to write.
struct InlineSnapshotRecording: Hashable, Sendable {
  /// The call's `#line`: the line of its argument list (or of its first trailing closure).
  var line: Int
  /// The call's `#column`, in UTF-8 bytes from 1: where its argument list starts.
  var column: Int
  /// Which closure of the call holds the snapshot.
  var syntaxDescriptor: InlineSnapshotSyntaxDescriptor
  /// The snapshot the running test was compiled with, or `nil` when it had none. The source must
  /// still say the same, or it has changed since the test was compiled.
  var expected: String?
  /// The snapshot to write, or `nil` to remove the closure.
  var actual: String?

  /// Recordings of the same closure of the same call share a slot.
  var slot: Slot {
    Slot(line: line, column: column, trailingClosureOffset: syntaxDescriptor.trailingClosureOffset)
  }

  struct Slot: Hashable, Comparable, Sendable {
    var line: Int
    var column: Int
    var trailingClosureOffset: Int

    /// Calls later in the file first, so that writing one never moves the calls still to be
    /// written; closures of the same call from the first to the last, the order their offsets
    /// are counted in.
    static func < (lhs: Self, rhs: Self) -> Bool {
      if lhs.line != rhs.line { return lhs.line > rhs.line }
      if lhs.column != rhs.column { return lhs.column > rhs.column }
      return lhs.trailingClosureOffset < rhs.trailingClosureOffset
    }
  }
}
