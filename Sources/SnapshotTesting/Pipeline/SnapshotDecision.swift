import Foundation
import RunRecord

/// What an assertion concluded, before it touches the disk or the test framework.
enum SnapshotDecision {
  /// The snapshot matches its reference.
  case matched
  /// The snapshot is to be written as the reference; the assertion fails so it gets reviewed.
  case recorded(RecordingReason)
  /// There is no reference and none is to be written.
  case missing(MissingReason)
  /// The snapshot differs from its reference.
  case mismatch(SnapshotDifference)
  /// The reference cannot be compared with.
  case failed(SnapshotFileError)

  enum RecordingReason: Equatable {
    /// Record mode `all`.
    case recordModeAll
    /// There was no reference.
    case referenceMissing
  }

  enum MissingReason: Equatable {
    /// Record mode `never`.
    case recordModeNever
    /// The `CI` variable is set and no record mode is configured.
    case continuousIntegration
  }
}

/// How a snapshot differs from its reference, in the format's own words.
struct SnapshotDifference {
  /// The comparison's account of the difference.
  var difference: String
  /// Files the comparison made to show the difference.
  var attachments: [DiffAttachment]
  /// Record mode `failed`: the snapshot is to replace the reference.
  var rerecords: Bool
  /// The reference file was empty, which usually means it was truncated.
  var referenceWasEmpty: Bool
}

/// Step 2 of an assertion: decides its outcome from the record mode, what is stored at the
/// reference's location and the new snapshot. A pure function: it reads and writes nothing.
///
/// - Parameters:
///   - reference: What was read where the reference lives, or the error reading it.
///   - snapshotData: The snapshot as it would be written, or `nil` when its format encodes
///     only to write (``Diffing/encodesOnlyToWrite``): it is then compared decoded.
///   - referenceURL: Named in the messages of references that cannot be compared with.
func decideSnapshot<Format>(
  recordMode: ResolvedRecordMode,
  reference: Result<StoredReference, SnapshotFileError>,
  snapshot: Format,
  snapshotData: Data?,
  diffing: Diffing<Format>,
  referenceURL: URL
) -> SnapshotDecision {
  if recordMode.mode == .all { return .recorded(.recordModeAll) }
  let referenceData: Data
  switch reference {
  case .failure(let error):
    return .failed(error)
  case .success(.missing):
    if recordMode.mode == .never { return .missing(.recordModeNever) }
    guard recordMode.writesMissingReferences else { return .missing(.continuousIntegration) }
    return .recorded(.referenceMissing)
  case .success(.present(let data)):
    referenceData = data
  }
  // The bytes that would be recorded are the reference's: the snapshot is what was recorded.
  // Checked first because it costs one memory compare, against decoding the reference and
  // running the format's comparison.
  if let snapshotData, referenceData == snapshotData { return .matched }
  let stored = diffing.fromData(referenceData)
  // A text reference that is not UTF-8 would decode to replacement characters and fail with a
  // confusing diff; a custom text encoding that round-trips is left alone.
  if Format.self == String.self, String(validatingUTF8Data: referenceData) == nil,
    diffing.toData(stored) != referenceData
  {
    return .failed(.notUTF8(referenceURL))
  }
  guard let (difference, attachments) = diffing.diffV2(stored, snapshot) else { return .matched }
  return .mismatch(
    SnapshotDifference(
      difference: difference,
      attachments: attachments,
      rerecords: recordMode.mode == .failed,
      referenceWasEmpty: referenceData.isEmpty
    )
  )
}

extension String {
  /// Decodes UTF-8, or `nil` when the bytes are not valid UTF-8.
  init?(validatingUTF8Data data: Data) {
    guard let decoded = String(validating: data, as: UTF8.self) else { return nil }
    self = decoded
  }
}
