import Foundation
import XCTest

// Older spellings kept so that existing suites compile unchanged; each forwards to the current
// API.

/// The name of the test case class in older releases.
@available(*, deprecated, renamed: "XCTestCase")
public typealias SnapshotTestCase = XCTestCase

/// The spelling with `record: Bool?` of earlier releases; forwards to the one that takes a
/// `SnapshotTestingConfiguration.Record?`.
@available(
  *,
  deprecated,
  message: "Use overload with 'record: SnapshotTestingConfiguration.Record?'"
)
@_disfavoredOverload
public func assertSnapshot<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record recording: Bool? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  assertSnapshot(
    of: try value(),
    as: snapshotting,
    named: name,
    record: SnapshotTestingConfiguration.Record(recording),
    timeout: timeout,
    fileID: fileID,
    file: filePath,
    testName: testName,
    line: line,
    column: column
  )
}

/// The spelling with `record: Bool?` of earlier releases; forwards to the one that takes a
/// `SnapshotTestingConfiguration.Record?`.
@available(
  *,
  deprecated,
  message: "Use overload with 'record: SnapshotTestingConfiguration.Record?'"
)
@_disfavoredOverload
public func assertSnapshots<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as strategies: [String: Snapshotting<Value, Format>],
  record recording: Bool? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  assertSnapshots(
    of: try value(),
    as: strategies,
    record: SnapshotTestingConfiguration.Record(recording),
    timeout: timeout,
    fileID: fileID,
    file: filePath,
    testName: testName,
    line: line,
    column: column
  )
}

/// The spelling with `record: Bool?` of earlier releases; forwards to the one that takes a
/// `SnapshotTestingConfiguration.Record?`.
@available(
  *,
  deprecated,
  message: "Use overload with 'record: SnapshotTestingConfiguration.Record?'"
)
@_disfavoredOverload
public func assertSnapshots<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as strategies: [Snapshotting<Value, Format>],
  record recording: Bool? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  assertSnapshots(
    of: try value(),
    as: strategies,
    record: SnapshotTestingConfiguration.Record(recording),
    timeout: timeout,
    fileID: fileID,
    file: filePath,
    testName: testName,
    line: line,
    column: column
  )
}

/// The spelling with `record: Bool?` of earlier releases; forwards to the one that takes a
/// `SnapshotTestingConfiguration.Record?`.
@available(
  *,
  deprecated,
  message: "Use overload with 'record: SnapshotTestingConfiguration.Record?'"
)
@_disfavoredOverload
public func verifySnapshot<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record recording: Bool? = nil,
  snapshotDirectory: String? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) -> String? {
  return verifySnapshot(
    of: try value(),
    as: snapshotting,
    named: name,
    record: SnapshotTestingConfiguration.Record(recording),
    snapshotDirectory: snapshotDirectory,
    timeout: timeout,
    fileID: fileID,
    file: filePath,
    testName: testName,
    line: line,
    column: column
  )
}

/// The `assertSnapshot(matching:…)` spelling of releases before `of:`; forwards to the `of:`
/// spelling.
@available(*, deprecated, renamed: "assertSnapshot(of:as:named:record:timeout:file:testName:line:)")
public func assertSnapshot<Value, Format>(
  matching value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record recording: Bool? = nil,
  timeout: TimeInterval = 5,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line
) {
  assertSnapshot(
    of: try value(),
    as: snapshotting,
    named: name,
    record: SnapshotTestingConfiguration.Record(recording),
    timeout: timeout,
    file: filePath,
    testName: testName,
    line: line
  )
}

/// The `assertSnapshots(matching:…)` spelling of releases before `of:`; forwards to the `of:`
/// spelling.
@available(*, deprecated, renamed: "assertSnapshots(of:as:record:timeout:file:testName:line:)")
public func assertSnapshots<Value, Format>(
  matching value: @autoclosure () throws -> Value,
  as strategies: [String: Snapshotting<Value, Format>],
  record recording: Bool? = nil,
  timeout: TimeInterval = 5,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line
) {
  assertSnapshots(
    of: try value(),
    as: strategies,
    record: SnapshotTestingConfiguration.Record(recording),
    timeout: timeout,
    file: filePath,
    testName: testName,
    line: line
  )
}

/// The `assertSnapshots(matching:…)` spelling of releases before `of:`; forwards to the `of:`
/// spelling.
@available(*, deprecated, renamed: "assertSnapshots(of:as:record:timeout:file:testName:line:)")
public func assertSnapshots<Value, Format>(
  matching value: @autoclosure () throws -> Value,
  as strategies: [Snapshotting<Value, Format>],
  record recording: Bool? = nil,
  timeout: TimeInterval = 5,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line
) {
  assertSnapshots(
    of: try value(),
    as: strategies,
    record: SnapshotTestingConfiguration.Record(recording),
    timeout: timeout,
    file: filePath,
    testName: testName,
    line: line
  )
}

/// The `verifySnapshot(matching:…)` spelling of releases before `of:`; forwards to the `of:`
/// spelling.
@available(
  *, deprecated,
  renamed: "verifySnapshot(of:as:named:record:snapshotDirectory:timeout:file:testName:line:)"
)
public func verifySnapshot<Value, Format>(
  matching value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record recording: Bool? = nil,
  snapshotDirectory: String? = nil,
  timeout: TimeInterval = 5,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line
) -> String? {
  return verifySnapshot(
    of: try value(),
    as: snapshotting,
    named: name,
    record: SnapshotTestingConfiguration.Record(recording),
    snapshotDirectory: snapshotDirectory,
    timeout: timeout,
    file: filePath,
    testName: testName,
    line: line
  )
}
