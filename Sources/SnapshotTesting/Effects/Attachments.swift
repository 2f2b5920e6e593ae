import Foundation
import Testing

/// Files that go with a failure: the failed snapshot and the diff's attachments.
struct FailureAttachment {
  var name: String
  var data: Data
}

/// Attaches files to the running Swift Testing test, where `swift test --attachments-path DIR`
/// collects them. XCTest on Linux has no attachments; there the files written to the artifacts
/// folder are the record.
func recordAttachments(_ attachments: [FailureAttachment], sourceLocation: SourceLocation) {
  guard isRunningSwiftTesting else { return }
  for attachment in attachments {
    Attachment.record(
      [UInt8](attachment.data),
      named: attachment.name,
      sourceLocation: sourceLocation
    )
  }
}
