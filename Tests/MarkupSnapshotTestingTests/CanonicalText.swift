import SnapshotTesting
import TestSupport
import Testing

/// The text `strategy` makes of `markup`, expecting it to make one (no reported failure).
func canonical(
  _ markup: String,
  as strategy: Snapshotting<String, String>,
  sourceLocation: SourceLocation = #_sourceLocation
) -> String {
  let (text, failure) = snapshotText(markup, as: strategy)
  #expect(failure == nil, sourceLocation: sourceLocation)
  return text
}
