import InMemoryLogging
import Logging
import TranscriptSnapshotTesting

/// The one bootstrap of this test process; entries made outside any capture land in swift-log's
/// own in-memory handler, so tests can prove where they went.
enum Bootstrap {
  static let outside = InMemoryLogHandler()

  static func once() {
    Transcript.bootstrap(fallbackLogHandler: { _ in outside })
  }
}
