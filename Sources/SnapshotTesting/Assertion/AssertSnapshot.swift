import Foundation

/// Asserts that a value's snapshot matches the reference stored beside the test.
///
/// The first run records the reference (under `__Snapshots__` next to the test file) and fails so
/// it gets reviewed; later runs compare against it and fail with a diff when it changed.
///
/// ```swift
/// @Test func user() {
///   assertSnapshot(of: User(id: 1, name: "Blob"), as: .json)
/// }
/// ```
///
/// Works in XCTest cases and in Swift Testing tests, reporting to whichever is running.
///
/// - Parameters:
///   - value: The value to snapshot.
///   - snapshotting: The strategy that turns it into a diffable format.
///   - name: A name for the snapshot, used in its file name instead of a counter.
///   - record: The record mode for this assertion, overriding every other setting.
///   - timeout: Seconds to wait for an asynchronous strategy.
///   - fileID: The file ID of the assertion, for Swift Testing issues.
///   - filePath: The test file; references are stored beside it.
///   - testName: The test's name, used in the reference's file name.
///   - line: The line of the assertion.
///   - column: The column of the assertion.
public func assertSnapshot<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record: SnapshotTestingConfiguration.Record? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  let failure = verifySnapshot(
    of: try value(),
    as: snapshotting,
    named: name,
    record: record,
    timeout: timeout,
    fileID: fileID,
    file: filePath,
    testName: testName,
    line: line,
    column: column
  )
  guard let failure else { return }
  recordIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts that a value's snapshot matches its reference, suspending instead of blocking while
/// the strategy takes the snapshot: the `async` form of
/// ``assertSnapshot(of:as:named:record:timeout:fileID:file:testName:line:column:)-(_,_,_,SnapshotTestingConfiguration.Record?,_,_,_,_,_,_)``.
///
/// ```swift
/// @Test func greeting() async {
///   await assertSnapshotAsync(of: greet, as: .output)
/// }
/// ```
///
/// A strategy that takes time (a command that runs, a web page that loads) holds no thread while
/// this waits, so tests running in parallel, and work the test itself started (a server in a
/// `Task`), keep Swift's cooperative thread pool. It compares, records and reports exactly as
/// `assertSnapshot` does, with the same parameters; `value` may also `await`.
///
/// - Parameters:
///   - value: The value to snapshot.
///   - snapshotting: The strategy that turns it into a diffable format.
///   - name: A name for the snapshot, used in its file name instead of a counter.
///   - record: The record mode for this assertion, overriding every other setting.
///   - timeout: Seconds to wait for an asynchronous strategy.
///   - fileID: The file ID of the assertion, for Swift Testing issues.
///   - filePath: The test file; references are stored beside it.
///   - testName: The test's name, used in the reference's file name.
///   - line: The line of the assertion.
///   - column: The column of the assertion.
public func assertSnapshotAsync<Value, Format>(
  of value: @autoclosure () async throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record: SnapshotTestingConfiguration.Record? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) async {
  let failure = await runSuspendingSnapshotAssertion(
    of: value,
    as: snapshotting,
    context: AssertionContext(
      name: name,
      record: record,
      snapshotDirectory: nil,
      timeout: timeout,
      fileID: String(describing: fileID),
      filePath: String(describing: filePath),
      testName: testName,
      line: line,
      column: column
    )
  )
  guard let failure else { return }
  recordIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts a value against several named strategies; each key names its snapshot.
///
/// ```swift
/// assertSnapshots(of: user, as: ["json": .json, "dump": .dump])
/// ```
public func assertSnapshots<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as strategies: [String: Snapshotting<Value, Format>],
  record: SnapshotTestingConfiguration.Record? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  // Sorted so that the order of recording and reporting does not depend on hashing.
  for (name, strategy) in strategies.sorted(by: { $0.key < $1.key }) {
    assertSnapshot(
      of: try value(),
      as: strategy,
      named: name,
      record: record,
      timeout: timeout,
      fileID: fileID,
      file: filePath,
      testName: testName,
      line: line,
      column: column
    )
  }
}

/// Asserts a value against several strategies; their snapshots are numbered in order.
///
/// ```swift
/// assertSnapshots(of: user, as: [.json, .dump])
/// ```
public func assertSnapshots<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as strategies: [Snapshotting<Value, Format>],
  record: SnapshotTestingConfiguration.Record? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  for strategy in strategies {
    assertSnapshot(
      of: try value(),
      as: strategy,
      record: record,
      timeout: timeout,
      fileID: fileID,
      file: filePath,
      testName: testName,
      line: line,
      column: column
    )
  }
}

/// Compares a value's snapshot with its reference and returns the failure message, or `nil` when
/// it matches. It reports nothing itself: use it to build assertion helpers of your own.
///
/// ```swift
/// func assertSnapshotInFixtures<Value, Format>(
///   of value: Value, as strategy: Snapshotting<Value, Format>,
///   file: StaticString = #filePath, testName: String = #function, line: UInt = #line
/// ) {
///   if let message = verifySnapshot(
///     of: value, as: strategy, snapshotDirectory: "/path/to/fixtures",
///     file: file, testName: testName, line: line
///   ) {
///     XCTFail(message, file: file, line: line)
///   }
/// }
/// ```
///
/// - Parameters:
///   - snapshotDirectory: A folder to store the references in, instead of
///     `__Snapshots__/<test file name>` beside the test file.
///   - value: The value to snapshot.
///   - snapshotting: The strategy that snapshots and compares the value.
///   - name: A name for the reference, instead of the assertion's counter in the test.
///   - record: When to write the reference; `nil` uses the configured mode.
///   - timeout: How long to wait for an asynchronous strategy.
///   - fileID: The calling file's ID (`#fileID`).
///   - filePath: The calling file's full path. It defaults to `#filePath`, as `#file` did before
///     the Swift 6 language mode.
///   - testName: The calling test's name (`#function`).
///   - line: The calling line (`#line`).
///   - column: The calling column (`#column`), as in
///     ``assertSnapshot(of:as:named:record:timeout:fileID:file:testName:line:column:)-(_,_,_,SnapshotTestingConfiguration.Record?,_,_,_,_,_,_)``.
/// - Returns: The failure message, or `nil` if the snapshot matched.
public func verifySnapshot<Value, Format>(
  of value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, Format>,
  named name: String? = nil,
  record: SnapshotTestingConfiguration.Record? = nil,
  snapshotDirectory: String? = nil,
  timeout: TimeInterval = 5,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) -> String? {
  runSnapshotAssertion(
    of: value,
    as: snapshotting,
    context: AssertionContext(
      name: name,
      record: record,
      snapshotDirectory: snapshotDirectory,
      timeout: timeout,
      fileID: String(describing: fileID),
      filePath: String(describing: filePath),
      testName: testName,
      line: line,
      column: column
    )
  )
}
