extension Snapshotting where Format == String {
  /// A strategy that scrubs this strategy's text before it is compared, recorded, diffed,
  /// attached or written inline.
  ///
  /// ```swift
  /// assertSnapshot(of: user, as: .dump.scrubbing(.uuids, .iso8601Dates))
  /// assertSnapshot(of: log, as: .lines.scrubbing(.replacing(#/took \d+ ms/#, with: "<took>")))
  /// ```
  ///
  /// Scrubbers run in the order given, after the scrubbers in scope
  /// (`withSnapshotTesting(scrubbing:)`, `.snapshots(scrubbing:)`). The built-ins number the
  /// identities they replace by first appearance in this snapshot (`UUID_1`, `UUID_2`). A scrubber
  /// that throws, or that makes a `.json` or `.plist` snapshot unparsable, fails the assertion with
  /// a message naming it.
  ///
  /// - Parameter scrubbers: The scrubbers, in the order they run.
  /// - Returns: A strategy with the same path extension and diffing.
  public func scrubbing(_ scrubbers: Scrubber...) -> Self {
    scrubbing(scrubbers)
  }

  /// A strategy that scrubs this strategy's text; see the variadic `scrubbing(_:)`.
  public func scrubbing(_ scrubbers: [Scrubber]) -> Self {
    let snapshot = self.snapshot
    let pathExtension = self.pathExtension
    return Self(pathExtension: pathExtension, diffing: diffing) { value in
      // Read on the assertion's task, where the engine hands over the scrubbers in scope.
      let scoped = ScopedScrubbers.Handover.current
      return Async { callback in
        snapshot(value).run { text in
          let all = (scoped?.take() ?? []) + scrubbers
          callback(ScrubbingPass.scrub(text, with: all, pathExtension: pathExtension))
        }
      }
    }
  }
}
