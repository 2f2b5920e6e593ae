import Logging

extension Snapshotting where Value == Transcript, Format == String {
  /// Snapshots what a piece of server work did as one text, in a `.txt` reference: the HTTP
  /// exchange as `.http` prints it, each log entry (level, label, message, metadata with sorted
  /// keys) and each span tree (name, kind, sorted attributes, events, errors, links, status), in
  /// the order they happened.
  ///
  /// ```swift
  /// assertSnapshot(of: transcript, as: .transcript)
  /// ```
  ///
  /// An entry that logs an SQL statement under `sql`, as SQLKit's drivers and through them
  /// Fluent's log each one, is shown as `── sql LEVEL LABEL: STATEMENT`, its bind parameters
  /// counted and their values left out (as are the values of a span's `db.query.parameter.*`
  /// attributes).
  ///
  /// UUIDs and ISO 8601 dates are numbered by first appearance (`UUID_1`, `DATE_1`); trace and
  /// span IDs of links are numbered too (`TRACE_ID_1`, `SPAN_ID_1`). Durations, timestamps and
  /// source locations are left out.
  public static var transcript: Snapshotting {
    .transcript()
  }

  /// Snapshots a transcript, leaving out entries below `minimumLevel`, with each span's duration
  /// rounded up to `durationBucket` when given, and each entry's file and line when
  /// `sourceLocations` is true.
  ///
  /// ```swift
  /// assertSnapshot(
  ///   of: transcript, as: .transcript(minimumLevel: .info, durationBucket: .seconds(1)))
  /// ```
  public static func transcript(
    minimumLevel: Logger.Level = .trace,
    durationBucket: Duration? = nil,
    sourceLocations: Bool = false
  ) -> Snapshotting {
    let options = TranscriptOptions(
      minimumLevel: minimumLevel,
      durationBucket: durationBucket,
      sourceLocations: sourceLocations
    )
    // Scrubbing as `.scrubbing(.uuids, .iso8601Dates)` would, reading only the values that may
    // hold an identity (see `TranscriptIdentities`).
    let identities = TranscriptIdentities()
    var strategy = SimplySnapshotting<String>.lines.pullback { (transcript: Transcript) in
      let rendered = TranscriptText.rendered(transcript, options: options)
      identities.rendered(rendered.text, candidates: rendered.candidates)
      return rendered.text
    }
    strategy.pathExtension = "txt"
    return strategy.scrubbing(identities.scrubber)
  }
}
