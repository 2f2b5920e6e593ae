import Foundation
@_spi(Internals) import SnapshotTesting

/// An asynchronous strategy that never delivered its text.
struct InlineSnapshotTimeoutError: Error, CustomStringConvertible {
  var timeout: TimeInterval

  var description: String {
    """
    Exceeded timeout of \(timeout) seconds waiting for snapshot.

    This can happen when an asynchronously loaded value (like a network response) has not \
    loaded, or when a custom strategy's `Async` never calls back. If a timeout is unavoidable, \
    pass a larger "timeout" to "assertInlineSnapshot".
    """
  }
}

/// Runs `async` and waits at most `timeout` seconds for its text (see `awaitValue`).
func awaitInlineSnapshot(
  _ async: Async<String>,
  timeout: TimeInterval
) throws(InlineSnapshotTimeoutError) -> String {
  guard let text = awaitValue(async, timeout: timeout) else {
    throw InlineSnapshotTimeoutError(timeout: timeout)
  }
  return text
}
