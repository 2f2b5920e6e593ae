/// Which closure of a call holds an inline snapshot: the fields of `InlineSnapshotTesting`'s
/// public `InlineSnapshotSyntaxDescriptor` that the rewriter reads, without its test-framework
/// reporting, so that the review tool can rewrite sources without linking a test framework.
struct InlineSnapshotSyntaxDescriptor: Hashable, Sendable {
  var deprecatedTrailingClosureLabels: [String]
  var trailingClosureLabel: String
  var trailingClosureOffset: Int

  /// Whether `label` names the snapshot's closure.
  func names(_ label: String) -> Bool {
    label == trailingClosureLabel || deprecatedTrailingClosureLabels.contains(label)
  }
}
