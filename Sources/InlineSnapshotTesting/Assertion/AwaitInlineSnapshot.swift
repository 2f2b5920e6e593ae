import Foundation
@_spi(Internals) import SnapshotTesting

/// An asynchronous strategy that never delivered its text.
struct InlineSnapshotTimeoutError: Error, CustomStringConvertible {
  var timeout: TimeInterval

  /// Upstream's words, byte for byte, down to the line break inside its last sentence.
  var description: String {
    """
    Exceeded timeout of \(timeout) seconds waiting for snapshot.

    This can happen when an asynchronously loaded value (like a network response) has not \
    loaded. If a timeout is unavoidable, consider setting the "timeout" parameter of
    "assertInlineSnapshot" to a higher value.
    """
  }
}

/// Runs `async` and waits at most `timeout` seconds for its text (see `awaitValue`).
func awaitInlineSnapshot(
  _ async: Async<String>,
  timeout: TimeInterval
) throws(InlineSnapshotTimeoutError) -> String {
  // The strategy learns the timeout as a file snapshot's does, so slow work (a web page) can
  // stop itself once the assertion has given up, instead of holding what it holds forever.
  let wait = SnapshotWait(timeout: timeout)
  guard let text = SnapshotWait.$current.withValue(wait, operation: { awaitValue(async, timeout: timeout) })
  else {
    throw InlineSnapshotTimeoutError(timeout: timeout)
  }
  return text
}
