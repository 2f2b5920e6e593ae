import RunRecord
import SnapshotTesting

extension Diffing {
  /// The diffing, marked for review tools as an image comparison whose attachments are the
  /// reference, the new image and the difference image.
  func reviewedAsImages() -> Diffing {
    var diffing = self
    diffing.reviewKind = .image
    diffing.attachmentRoles = [
      "reference.png": .reference,
      "failure.png": .newSnapshot,
      "difference.png": .differenceImage,
    ]
    return diffing
  }
}
