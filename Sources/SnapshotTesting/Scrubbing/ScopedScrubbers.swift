import Foundation

/// How the assertion engines apply the scrubbers in scope (`withSnapshotTesting(scrubbing:)`,
/// `.snapshots(scrubbing:)`, kept in ``SnapshotScope``) to every text snapshot, first and once.
///
/// An engine takes a text snapshot inside ``applying(_:pathExtension:_:)``, which hands the scoped
/// scrubbers over to the first `.scrubbing(...)` strategy that runs, so
/// they run before that strategy's own scrubbers, in the same pass. If no such strategy ran (a
/// plain `.lines`), the engine runs them itself on the finished text. Formats other than `String`
/// (images, `Data`) are never scrubbed.
package enum ScopedScrubbers {
  /// Takes a snapshot with `takeSnapshot` and makes sure the scrubbers in scope ran on it once.
  package static func applying<Format>(
    _ scoped: [Scrubber],
    pathExtension: String?,
    _ takeSnapshot: () throws -> Format
  ) rethrows -> Format {
    guard !scoped.isEmpty, Format.self == String.self else { return try takeSnapshot() }
    let handover = Handover(scoped)
    let snapshot = try Handover.$current.withValue(handover, operation: takeSnapshot)
    return scrubbingLeftovers(of: snapshot, handover: handover, pathExtension: pathExtension)
  }

  /// ``applying(_:pathExtension:_:)`` for a snapshot taken by suspending.
  package static func applying<Format>(
    _ scoped: [Scrubber],
    pathExtension: String?,
    _ takeSnapshot: () async throws -> Format
  ) async rethrows -> Format {
    guard !scoped.isEmpty, Format.self == String.self else { return try await takeSnapshot() }
    let handover = Handover(scoped)
    let snapshot = try await Handover.$current.withValue(handover, operation: takeSnapshot)
    return scrubbingLeftovers(of: snapshot, handover: handover, pathExtension: pathExtension)
  }

  /// The snapshot with the scrubbers no `.scrubbing` strategy took run on it.
  private static func scrubbingLeftovers<Format>(
    of snapshot: Format,
    handover: Handover,
    pathExtension: String?
  ) -> Format {
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
