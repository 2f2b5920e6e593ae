import Foundation

/// The scrubbers set by `withSnapshotTesting(scrubbing:)` and `.snapshots(scrubbing:)`, and how
/// the assertion engines apply them to every text snapshot, first and once.
///
/// An engine takes a text snapshot inside ``applying(pathExtension:_:)``, which hands the scoped
/// scrubbers over to the first `.scrubbing(...)` strategy that runs, so
/// they run before that strategy's own scrubbers, in the same pass. If no such strategy ran (a
/// plain `.lines`), the engine runs them itself on the finished text. Formats other than `String`
/// (images, `Data`) are never scrubbed.
package enum ScopedScrubbers {
  /// The scrubbers in scope, outermost scope's first.
  @TaskLocal static var current: [Scrubber] = []

  /// Runs `operation` with `scrubbers` added after the ones already in scope.
  static func adding<R>(_ scrubbers: [Scrubber], operation: () throws -> R) rethrows -> R {
    try $current.withValue(current + scrubbers, operation: operation)
  }

  /// Runs the asynchronous `operation` with `scrubbers` added after the ones already in scope.
  static func adding<R>(
    _ scrubbers: [Scrubber],
    operation: () async throws -> R
  ) async rethrows -> R {
    try await $current.withValue(current + scrubbers, operation: operation)
  }

  /// Takes a snapshot with `takeSnapshot` and makes sure the scrubbers in scope ran on it once.
  package static func applying<Format>(
    pathExtension: String?,
    _ takeSnapshot: () throws -> Format
  ) rethrows -> Format {
    let scoped = current
    guard !scoped.isEmpty, Format.self == String.self else { return try takeSnapshot() }
    let handover = Handover(scoped)
    let snapshot = try Handover.$current.withValue(handover, operation: takeSnapshot)
    let leftover = handover.take()
    guard !leftover.isEmpty, let text = snapshot as? String else { return snapshot }
    let scrubbed = ScrubbingPass.scrub(text, with: leftover, pathExtension: pathExtension)
    return scrubbed as? Format ?? snapshot
  }

  /// The scoped scrubbers of one assertion, until a `.scrubbing` strategy or the engine takes
  /// them.
  final class Handover: @unchecked Sendable {
    @TaskLocal static var current: Handover?

    private let lock = NSLock()
    private var scrubbers: [Scrubber]

    init(_ scrubbers: [Scrubber]) { self.scrubbers = scrubbers }

    /// The scrubbers not yet run; empty after the first call.
    func take() -> [Scrubber] {
      lock.withLock {
        defer { scrubbers = [] }
        return scrubbers
      }
    }
  }
}
