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

  /// The version this build writes; ``FailureRecordStore`` also reads version 1.
  package static let currentVersion = 2

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
    recordedAt: Double
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
  }

  /// The path of the new snapshot this run took.
  package var newSnapshotPath: String? {
    files.first { $0.role == .newSnapshot }?.path
  }
}
