import Foundation
import RunRecord
@_spi(Internals) import SnapshotTesting

/// Asserts that a value's text snapshot matches the one written in the test's source, recording
/// it into the source when there is none.
///
/// ```swift
/// func testGreeting() {
///   assertInlineSnapshot(of: greeting(for: "Blob"), as: .lines)
/// }
/// ```
///
/// The first run fails and, when the test process exits, writes the snapshot into the call as a
/// trailing closure; later runs compare against it:
///
/// ```swift
/// func testGreeting() {
///   assertInlineSnapshot(of: greeting(for: "Blob"), as: .lines) {
///     """
///     Hello, Blob!
///     """
///   }
/// }
/// ```
///
/// The record mode decides what is written, as for file snapshots: `.missing`
/// (the default) writes missing snapshots, `.failed` also rewrites mismatching ones, `.all`
/// rewrites every one, `.never` writes nothing. On CI (the `CI` environment variable is set) with
/// no mode configured, nothing is written.
///
/// - Parameters:
///   - value: The value to snapshot; `nil` removes the snapshot closure when one is recorded.
///   - snapshotting: A strategy that turns the value into text.
///   - message: Replaces the first line of the failure message on a mismatch.
///   - record: The record mode for this assertion, overriding every other setting.
///   - timeout: How long to wait for an asynchronous strategy, in seconds.
///   - syntaxDescriptor: Where the snapshot closure is, for helpers that wrap this function; see
///     ``InlineSnapshotSyntaxDescriptor``.
///   - expected: The recorded snapshot; leave it out and it is written for you.
///   - fileID: The file ID of the call.
///   - filePath: The path of the file with the call; this is the file that is rewritten.
///   - function: The test function, named in failure messages.
///   - line: The line of the call; with `column` it identifies the call in the source.
///   - column: The column of the call.
public func assertInlineSnapshot<Value>(
  of value: @autoclosure () throws -> Value?,
  as snapshotting: Snapshotting<Value, String>,
  message: @autoclosure () -> String = "",
  record: SnapshotTestingConfiguration.Record? = nil,
  timeout: TimeInterval = 5,
  syntaxDescriptor: InlineSnapshotSyntaxDescriptor = InlineSnapshotSyntaxDescriptor(),
  matches expected: (() -> String)? = nil,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  function: StaticString = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  let report = { (message: String) in
    recordIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  let recordMode: ResolvedRecordMode
  let actual: String?
  do {
    let settings = resolveSettings(recordArgument: record)
    recordMode = try settings.record.get()
    try refuseVariant(settings.variant)
    actual = try takeInlineSnapshot(
      of: value, as: snapshotting, scrubbers: settings.scrubbers, timeout: timeout)
  } catch {
    report("\(error)")
    return
  }
  let expected = expected?()
  let decision = decideInlineSnapshot(
    expected: expected,
    actual: actual,
    recordMode: recordMode,
    diffing: snapshotting.diffing
  )
  let recordingError =
    decision.records
    ? enqueueInlineRecording(
      InlineSnapshotRecording(
        line: Int(line),
        column: Int(column),
        syntaxDescriptor: syntaxDescriptor,
        expected: expected,
        actual: actual
      ),
      filePath: "\(filePath)"
    ) : nil
  let failure = inlineSnapshotFailureMessage(
    decision,
    actual: actual,
    customMessage: message(),
    syntaxDescriptor: syntaxDescriptor,
    function: "\(function)",
    recordingError: recordingError
  )
  let failureRecord = InlineFailureRecord(
    filePath: InlineSnapshotStore.current.filePath(for: "\(filePath)"),
    function: "\(function)",
    line: Int(line),
    column: Int(column),
    syntaxDescriptor: syntaxDescriptor,
    expected: expected,
    actual: actual
  )
  guard var failure else {
    failureRecord.clear(environment: RunEnvironment.current)
    return
  }
  if decision.records && recordingError == nil {
    failureRecord.clear(environment: RunEnvironment.current)
  } else if let note = failureRecord.save(
    decision, message: failure, environment: RunEnvironment.current)
  {
    failure += note
  }
  if case .mismatch = decision {
    syntaxDescriptor.fail(failure, fileID: fileID, file: filePath, line: line, column: column)
  } else {
    report(failure)
  }
}

/// The value's text, or `nil` for a `nil` value. A timeout, a throwing value or a strategy that
/// cannot snapshot the value (``UnavailableSnapshot``) is an error whose description is the
/// failure message; nothing is then recorded.
private func takeInlineSnapshot<Value>(
  of value: () throws -> Value?,
  as snapshotting: Snapshotting<Value, String>,
  scrubbers: [Scrubber],
  timeout: TimeInterval
) throws(InlineSnapshotFailure) -> String? {
  let (text, reports): (String?, StrategyReports)
  do {
    (text, reports) = try StrategyReports.collecting {
      try value().map { value in
        // Scoped scrubbers clean the text before it is compared or written into the test.
        try ScopedScrubbers.applying(scrubbers, pathExtension: snapshotting.pathExtension) {
          try awaitInlineSnapshot(snapshotting.snapshot(value), timeout: timeout)
        }
      }
    }
  } catch let error as InlineSnapshotTimeoutError {
    throw InlineSnapshotFailure(description: error.description)
  } catch {
    throw InlineSnapshotFailure(description: "Threw error: \(error)")
  }
  if let unavailable = reports.unavailable {
    throw InlineSnapshotFailure(
      description: """
        \(unavailable)

        The strategy could not produce a snapshot of this value, so nothing was compared and \
        nothing was written into the test.
        """
    )
  }
  return text
}

/// Queues a recording for the end of the run; returns why it cannot be written, if it cannot.
private func enqueueInlineRecording(
  _ recording: InlineSnapshotRecording,
  filePath: String
) -> InlineSnapshotWriteError? {
  do {
    try InlineSnapshotStore.current.enqueue(recording, path: filePath)
    return nil
  } catch {
    return error
  }
}

/// A failure that ends an inline assertion before it compares anything.
struct InlineSnapshotFailure: Error, CustomStringConvertible {
  var description: String
}

/// Why an inline snapshot cannot run under a reference variant.
struct InlineSnapshotVariantError: Error, CustomStringConvertible {
  var variant: String
  var source: VariantSource

  var description: String {
    let setBy: String
    switch source {
    case .scope:
      setBy = "withSnapshotTesting(variant:) or the .snapshots(variant:) trait sets"
    case .environment:
      setBy = "SNAPSHOT_TESTING_VARIANT sets"
    }
    return """
      Inline snapshots cannot have reference variants: \(setBy) the variant "\(variant)" here, \
      but an inline snapshot is stored in the test's source, which is the same for every variant. \
      Move this assertion out of the variant's scope, or use assertSnapshot, which stores a \
      reference file per variant.
      """
  }
}

/// Fails when a variant is in effect (a scope or trait, or `SNAPSHOT_TESTING_VARIANT`), valid or
/// not: there is only one inline snapshot to compare with.
private func refuseVariant(
  _ variant: Result<ResolvedVariant?, VariantNameError>
) throws(InlineSnapshotVariantError) {
  switch variant {
  case .success(nil): return
  case .success(let variant?):
    throw InlineSnapshotVariantError(variant: variant.name, source: variant.source)
  case .failure(let error):
    throw InlineSnapshotVariantError(variant: error.name, source: error.source)
  }
}
