import Foundation
import Testing

/// Where an assertion was written and how its call configured it.
struct AssertionContext {
  var name: String?
  var record: SnapshotTestingConfiguration.Record?
  var snapshotDirectory: String?
  var timeout: TimeInterval
  var fileID: String
  var filePath: String
  var testName: String
  var line: UInt
  var column: UInt

  var sourceLocation: SourceLocation {
    safeSourceLocation(fileID: fileID, filePath: filePath, line: Int(line), column: Int(column))
  }
}
