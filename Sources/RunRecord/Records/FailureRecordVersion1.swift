import Foundation

/// The record format of the first release, read so that failures recorded by an older run can
/// still be reviewed and accepted. It stored the message only; the fields of version 2 are
/// recovered from the message's first line and from the files' names, which is all it had.
struct FailureRecordVersion1: Decodable {
  var kind: FailureRecord.Reason
  var testName: String
  var testFilePath: String
  var line: Int
  var snapshotName: String?
  var referencePath: String
  var failedSnapshotPath: String
  var attachmentPaths: [String]
  var message: String
  var recordedAt: Double

  var upgraded: FailureRecord {
    let pathExtension = URL(fileURLWithPath: failedSnapshotPath).pathExtension
    let lines = message.split(separator: "\n", omittingEmptySubsequences: true)
    let headline = lines.first.map(String.init) ?? kind.rawValue
    let body = lines.dropFirst().joined(separator: "\n")
    return FailureRecord(
      reason: kind,
      kind: pathExtension.lowercased() == "png" ? .image : .text,
      pathExtension: pathExtension.isEmpty ? nil : pathExtension,
      testName: testName,
      testFilePath: testFilePath,
      line: line,
      snapshotName: snapshotName,
      referencePath: referencePath,
      headline: headline,
      difference: kind == .mismatch && !body.isEmpty ? body : nil,
      diffToolCommand: nil,
      files: [FailureRecord.File(role: .newSnapshot, path: failedSnapshotPath)]
        + attachmentPaths.map { FailureRecord.File(role: Self.role(ofAttachment: $0), path: $0) },
      message: message,
      recordedAt: recordedAt
    )
  }

  private static func role(ofAttachment path: String) -> FailureRecord.Role {
    if path.hasSuffix(".patch") { return .patch }
    if path.hasSuffix(".difference.png") { return .differenceImage }
    if path.hasSuffix(".reference.png") { return .reference }
    return .attachment
  }
}
