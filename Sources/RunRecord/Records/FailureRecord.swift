import Foundation

/// One failed assertion, as the test run leaves it for review tools (`snapshot-testing review`,
/// `accept`, `report`): data with a version, so that tools read fields and never parse the
/// failure message back.
///
/// Records live in ``ArtifactsFolder/failureRecordsFolder``, one per reference: a later failure
/// of the same reference replaces it, and a later match or recording removes it, so the folder
/// holds exactly the failures still pending. See ``FailureRecordStore``.
package struct FailureRecord: Codable, Equatable, Sendable {
  /// Why the assertion failed.
  package enum Reason: String, Codable, Sendable {
    /// The snapshot differs from its reference.
    case mismatch
    /// There was no reference, and it was not recorded (record mode `never`, or CI).
    case missing
  }

  /// How a tool shows the snapshot.
  package enum Kind: String, Codable, Sendable {
    /// UTF-8 text, compared line by line.
    case text
    /// A PNG image, compared pixel by pixel.
    case image
    /// Anything else: shown as files.
    case data
    /// An inline snapshot (`assertInlineSnapshot`): the text lives in the test's source, so
    /// ``FailureRecord/inline`` says where, and accepting rewrites that source.
    case inline
  }

  /// What a file of the failure is.
  package enum Role: String, Codable, Sendable {
    /// The snapshot this run took.
    case newSnapshot
    /// A copy of the reference the snapshot was compared with.
    case reference
    /// An image that shows where two images differ.
    case differenceImage
    /// A unified diff of two texts.
    case patch
    /// Any other file the comparison attached.
    case attachment
  }

  /// A file of the failure, in the artifacts folder.
  package struct File: Codable, Equatable, Sendable {
    package var role: Role
    package var path: String

    package init(role: Role, path: String) {
      self.role = role
      self.path = path
    }
  }

  /// Where an inline snapshot sits in its test's source, and its old and new text.
  package struct InlineSnapshot: Codable, Equatable, Sendable {
    /// The call's `#column`, in UTF-8 bytes from 1 (its line is ``FailureRecord/line``).
    package var column: Int
    /// The label of the snapshot's trailing closure (`matches`).
    package var trailingClosureLabel: String
    /// Older labels that also name the closure.
    package var deprecatedTrailingClosureLabels: [String]
    /// Which trailing closure holds the snapshot, counted from the first one.
    package var trailingClosureOffset: Int
    /// The text the source held when the test ran, `nil` when it had no closure.
    package var expected: String?
    /// The text the run produced, `nil` for a `nil` value (accepting removes the closure).
    package var actual: String?

    package init(
      column: Int,
      trailingClosureLabel: String,
      deprecatedTrailingClosureLabels: [String] = [],
      trailingClosureOffset: Int,
      expected: String?,
      actual: String?
    ) {
      self.column = column
      self.trailingClosureLabel = trailingClosureLabel
      self.deprecatedTrailingClosureLabels = deprecatedTrailingClosureLabels
      self.trailingClosureOffset = trailingClosureOffset
      self.expected = expected
      self.actual = actual
    }
  }

  /// The version this build writes; ``FailureRecordStore`` also reads versions 1 and 2.
  /// Version 3 added ``Kind/inline`` and ``inline``.
  package static let currentVersion = 3

  package var version: Int
  package var reason: Reason
  package var kind: Kind
  /// The strategy's path extension (`txt`, `png`), if it has one.
  package var pathExtension: String?
  /// The test function's name as the test spells it (`testUser()`).
  package var testName: String
  /// The test file's path.
  package var testFilePath: String
  package var line: Int
  /// The snapshot's name (`named:`), if it has one.
  package var snapshotName: String?
  /// Where the reference lives (or would live).
  package var referencePath: String
  /// The failure in one sentence: `Snapshot does not match reference.`
  package var headline: String
  /// The comparison's own account of the difference (a line diff, or the image comparison's
  /// counts); `nil` when there was nothing to compare with.
  package var difference: String?
  /// The configured diff tool's command for the reference and the new snapshot, if there was a
  /// reference.
  package var diffToolCommand: String?
  /// The new snapshot and every file the comparison attached.
  package var files: [File]
  /// The whole failure message as the test reported it.
  package var message: String
  /// When the failure was recorded, in seconds since 1970.
  package var recordedAt: Double
  /// For ``Kind/inline``: where the snapshot is in ``testFilePath`` and its two texts.
  package var inline: InlineSnapshot?

  package init(
    reason: Reason,
    kind: Kind,
    pathExtension: String?,
    testName: String,
    testFilePath: String,
    line: Int,
    snapshotName: String?,
    referencePath: String,
    headline: String,
    difference: String?,
    diffToolCommand: String?,
    files: [File],
    message: String,
    recordedAt: Double,
    inline: InlineSnapshot? = nil
  ) {
    self.version = Self.currentVersion
    self.reason = reason
    self.kind = kind
    self.pathExtension = pathExtension
    self.testName = testName
    self.testFilePath = testFilePath
    self.line = line
    self.snapshotName = snapshotName
    self.referencePath = referencePath
    self.headline = headline
    self.difference = difference
    self.diffToolCommand = diffToolCommand
    self.files = files
    self.message = message
    self.recordedAt = recordedAt
    self.inline = inline
  }

  /// What names the record's file: the reference's path, or for an inline snapshot its test
  /// file, line, column and closure (`Tests/AppTests/UserTests.swift:12:5+0`). Two failures with
  /// the same key are the same snapshot, so the later replaces the earlier.
  package var recordKey: String {
    guard let inline else { return referencePath }
    return Self.inlineRecordKey(
      testFilePath: testFilePath, line: line, column: inline.column,
      trailingClosureOffset: inline.trailingClosureOffset)
  }

  /// The ``recordKey`` of an inline snapshot.
  package static func inlineRecordKey(
    testFilePath: String, line: Int, column: Int, trailingClosureOffset: Int
  ) -> String {
    "\(testFilePath):\(line):\(column)+\(trailingClosureOffset)"
  }

  /// The path of the new snapshot this run took.
  package var newSnapshotPath: String? {
    files.first { $0.role == .newSnapshot }?.path
  }
}
