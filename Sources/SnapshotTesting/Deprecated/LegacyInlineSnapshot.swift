import Foundation

// The inline snapshot functions of releases before InlineSnapshotTesting existed. They compare
// against the given reference; they do not rewrite the source file (InlineSnapshotTesting does).

/// Compares a value's text snapshot with `reference` and reports a mismatch.
@available(
  *,
  deprecated,
  message: "Use 'assertInlineSnapshot(of:)' from the 'InlineSnapshotTesting' module, instead."
)
public func _assertInlineSnapshot<Value>(
  matching value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, String>,
  record recording: Bool = false,
  timeout: TimeInterval = 5,
  with reference: String,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  let failure = _verifyInlineSnapshot(
    matching: try value(),
    as: snapshotting,
    record: recording,
    timeout: timeout,
    with: reference,
    fileID: fileID,
    file: filePath,
    testName: testName,
    line: line,
    column: column
  )
  guard let failure else { return }
  recordIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Compares a value's text snapshot with `reference`; returns the failure message or `nil`.
@available(
  *,
  deprecated,
  message: "Use 'assertInlineSnapshot(of:)' from the 'InlineSnapshotTesting' module, instead."
)
public func _verifyInlineSnapshot<Value>(
  matching value: @autoclosure () throws -> Value,
  as snapshotting: Snapshotting<Value, String>,
  record recording: Bool = false,
  timeout: TimeInterval = 5,
  with reference: String,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) -> String? {
  let location = URL(fileURLWithPath: "\(filePath)")
  let snapshot: String
  do {
    snapshot = try awaitSnapshot(
      snapshotting.snapshot(try value()),
      timeout: timeout,
      referenceURL: location
    )
  } catch let error as SnapshotTimeoutError {
    return error.description
  } catch {
    return "Could not produce the value to snapshot: the expression threw \(error)."
  }
  let isRecording = recording || _record == .all
  guard isRecording || snapshotting.diffing.diffV2(reference, snapshot) != nil else {
    return nil
  }
  let difference = snapshotting.diffing.diffV2(reference, snapshot)?.0 ?? ""
  return """
    \(isRecording ? "Record mode is on." : "Snapshot does not match reference.") This legacy \
    inline assertion cannot rewrite "\(location.lastPathComponent)"; use assertInlineSnapshot \
    from InlineSnapshotTesting, or paste the new snapshot:

    \(snapshot)

    \(difference.trimmingCharacters(in: .whitespacesAndNewlines))
    """
}
