import SnapshotTesting

// Values and a helper shared by the Swift Testing and XCTest suites.

struct User {
  var id: Int
  var name: String
  var tags: Set<String>
}

enum Role {
  case admin
  case member(since: Int)
}

/// Runs a strategy and returns its text.
func snapshotText<Value>(of value: Value, as strategy: Snapshotting<Value, String>) async
  -> String
{
  await withCheckedContinuation { continuation in
    strategy.snapshot(value).run { continuation.resume(returning: $0) }
  }
}
