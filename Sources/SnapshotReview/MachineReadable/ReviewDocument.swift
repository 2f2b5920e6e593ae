import Foundation
import RunRecord

/// The pending failures as `snapshot-testing review --json` prints them: a versioned document for
/// CI scripts and editors, described by `Documentation/review.schema.json`.
///
/// Version 1. Fields are only ever added within a version; a field whose meaning or type changes,
/// or that goes away, bumps ``currentVersion``. Every path is absolute; ``packageRoot`` says what
/// to make them relative to. A field with no value is `null`, never left out.
package struct ReviewDocument: Encodable, Sendable {
  /// The version this build writes.
  package static let currentVersion = 1

  /// A file of a failure other than the new snapshot, in the artifacts folder.
  package struct Attachment: Encodable, Sendable, Equatable {
    /// `reference`, `newSnapshot` (a copy in the comparison's form), `differenceImage`, `patch` or
    /// `attachment`.
    package var role: String
    package var path: String
  }

  /// One pending failure.
  package struct Failure: Encodable, Sendable {
    /// The test function, as the test spells it (`testGreeting()`).
    package var test: String
    /// The snapshot's `named:` name, or `null`.
    package var snapshotName: String?
    /// The test file, as the run that failed recorded it.
    package var file: String
    /// The line of the assertion.
    package var line: Int
    /// `mismatch` or `missing`.
    package var reason: String
    /// `text`, `image` or `data`.
    package var kind: String
    /// The reference, located on this machine when the run was elsewhere.
    package var reference: String
    /// Whether ``reference`` was found under the package root (or under
    /// `SNAPSHOT_TESTING_REFERENCE_DIR`); `accept` refuses a failure whose reference was not.
    package var referenceLocated: Bool
    /// The snapshot the run took.
    package var newSnapshot: String
    /// The comparison's files: the diff, the reference's copy, the difference image.
    package var attachments: [Attachment]
    /// The failure in one sentence: `Snapshot does not match reference.`
    package var headline: String
    /// The comparison's own account of the difference, or `null` when there was nothing to
    /// compare with.
    package var difference: String?
    /// The whole message the test reported.
    package var message: String
    /// The command that accepts this failure alone.
    package var acceptCommand: String
    /// When the failure was recorded, in seconds since 1970.
    package var recordedAt: Double
    /// For an inline snapshot: where it is in ``file`` and its two texts; `null` otherwise.
    package var inline: FailureRecord.InlineSnapshot? = nil
    /// For a JSON or property-list mismatch: the changed values by path
    /// (`$.items[2].price: 12.5 → 13`); `null` otherwise, or when either side does not parse.
    package var changes: [String]? = nil

    enum CodingKeys: String, CodingKey {
      case test, snapshotName, file, line, reason, kind, reference, referenceLocated
      case newSnapshot, attachments, headline, difference, message, acceptCommand, recordedAt
      case inline, changes
    }

    /// Writes every key, `null` included, so that readers see one shape.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(test, forKey: .test)
      try container.encode(snapshotName, forKey: .snapshotName)
      try container.encode(file, forKey: .file)
      try container.encode(line, forKey: .line)
      try container.encode(reason, forKey: .reason)
      try container.encode(kind, forKey: .kind)
      try container.encode(reference, forKey: .reference)
      try container.encode(referenceLocated, forKey: .referenceLocated)
      try container.encode(newSnapshot, forKey: .newSnapshot)
      try container.encode(attachments, forKey: .attachments)
      try container.encode(headline, forKey: .headline)
      try container.encode(difference, forKey: .difference)
      try container.encode(message, forKey: .message)
      try container.encode(acceptCommand, forKey: .acceptCommand)
      try container.encode(recordedAt, forKey: .recordedAt)
      try container.encode(inline, forKey: .inline)
      try container.encode(changes, forKey: .changes)
    }
  }

  package var version = Self.currentVersion
  /// The artifacts folders the failures were read from, in the order given.
  package var artifacts: [String]
  /// The package's folder.
  package var packageRoot: String
  /// The selected pending failures, in the order `review` lists them.
  package var failures: [Failure]
  /// Failure records that could not be read, each naming the file and the cause.
  package var problems: [String]

  /// The document for `failures`, read from `artifactsRoots`.
  package init(
    failures: [PendingFailure],
    problems: [String],
    artifactsRoots: [URL],
    hints: CommandHints
  ) {
    self.artifacts = artifactsRoots.map(\.standardizedFileURL.path)
    self.packageRoot = hints.packageRoot.standardizedFileURL.path
    self.problems = problems
    self.failures = failures.map { failure in
      let record = failure.record
      return Failure(
        test: record.testName,
        snapshotName: record.snapshotName,
        file: failure.testFilePath,
        line: record.line,
        reason: record.reason.rawValue,
        kind: record.kind.rawValue,
        reference: failure.referenceURL?.path ?? record.referencePath,
        referenceLocated: failure.referenceLocated,
        newSnapshot: failure.failedSnapshotURL.path,
        attachments: failure.files.dropFirst().map {
          Attachment(role: $0.role.rawValue, path: $0.url.path)
        },
        headline: record.headline,
        difference: record.difference,
        message: record.message,
        acceptCommand: hints.acceptCommand(for: failure),
        recordedAt: record.recordedAt,
        inline: record.inline,
        changes: failure.structuredChanges
      )
    }
  }

  /// The document as pretty-printed JSON with sorted keys, ending with a newline.
  package func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding strings, numbers and arrays of them cannot fail.
    guard let data = try? encoder.encode(self) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}

/// How `review` prints for a machine.
package enum ReviewOutputFormat: String, CaseIterable, Sendable {
  /// ``ReviewDocument`` as JSON.
  case json
  /// GitHub Actions workflow commands, one `::error` line per failure.
  case github
}
