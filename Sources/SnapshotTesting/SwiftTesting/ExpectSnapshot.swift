import Foundation
import Testing
import XCTest

/// Checks a value's snapshot against its reference, in the style of `#expect`: a mismatch is
/// recorded as an issue at the caller's source location and the test goes on.
///
/// ```swift
/// @Test func invoice() {
///   let matched = expectSnapshot(of: invoice, as: .json)
///   if !matched { print("see the attachments") }
/// }
/// ```
///
/// - Returns: Whether the snapshot matched its reference.
@discardableResult
public func expectSnapshot<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record: SnapshotTestingConfiguration.Record? = nil,
  timeout: TimeInterval = 5,
  testName: String = #function,
  sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
  guard
    let failure = verify(
      value,
      as: snapshotting,
      named: name,
      record: record,
      timeout: timeout,
      testName: testName,
      sourceLocation: sourceLocation
    )
  else { return true }
  reportFailure(failure, at: sourceLocation, xcTestLocation: nil)
  return false
}

/// Checks a value's snapshot against its reference, in the style of `#require`: a mismatch is
/// recorded as an issue at the caller's source location and the test stops.
///
/// ```swift
/// @Test func invoice() throws {
///   try requireSnapshot(of: invoice, as: .json)
///   // only reached when the snapshot matched
/// }
/// ```
///
/// - Throws: When the snapshot does not match (the failure is already recorded).
public func requireSnapshot<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record: SnapshotTestingConfiguration.Record? = nil,
  timeout: TimeInterval = 5,
  testName: String = #function,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  guard
    let failure = verify(
      value,
      as: snapshotting,
      named: name,
      record: record,
      timeout: timeout,
      testName: testName,
      sourceLocation: sourceLocation
    )
  else { return }
  if isRunningSwiftTesting {
    // `#require` records the issue once and throws the error Swift Testing knows not to report
    // a second time.
    let snapshotMatches = false
    try #require(snapshotMatches, Comment(rawValue: failure), sourceLocation: sourceLocation)
  }
  reportFailure(failure, at: sourceLocation, xcTestLocation: nil)
  throw SnapshotMismatch(message: failure)
}

/// Thrown by ``requireSnapshot(of:as:named:record:timeout:testName:sourceLocation:)`` outside
/// Swift Testing, after the failure was reported.
public struct SnapshotMismatch: Error, CustomStringConvertible {
  /// The failure message that was reported.
  public var message: String
  /// The failure message, as the assertion reported it.
  public var description: String { message }
}

private func verify<Value, Format>(
  _ value: () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String?,
  record: SnapshotTestingConfiguration.Record?,
  timeout: TimeInterval,
  testName: String,
  sourceLocation: SourceLocation
) -> String? {
  runSnapshotAssertion(
    of: value,
    as: snapshotting,
    context: AssertionContext(
      name: name,
      record: record,
      snapshotDirectory: nil,
      timeout: timeout,
      fileID: sourceLocation.fileID,
      filePath: sourceLocation.filePath,
      testName: testName,
      line: UInt(sourceLocation.line),
      column: UInt(sourceLocation.column)
    )
  )
}
