import Foundation
import RunRecord

/// The assertion pipeline, in three steps: resolve (configuration, reference location), decide
/// (``decideSnapshot``, pure), act (write, attach, record for review, build the message).
///
/// Returns `nil` when the snapshot matches, else the failure message. Reporting the message to
/// the test framework is the caller's.
func runSnapshotAssertion<Value, Format>(
  of value: () throws -> Value,
  as strategy: Snapshotting<Value, Format>,
  context: AssertionContext
) -> String? {
  let assertion: ResolvedAssertion
  let (snapshot, encoded): (Format, Data?)
  do {
    assertion = try resolve(context, strategy)
    (snapshot, encoded) = try takeSnapshot(of: value, as: strategy, assertion: assertion)
  } catch {
    return error.description
  }
  return compare(snapshot, encoded, as: strategy, assertion: assertion)
}

/// ``runSnapshotAssertion(of:as:context:)`` for the `async` assertion: the same steps, but it
/// suspends, holding no thread, while the strategy takes its snapshot.
func runSuspendingSnapshotAssertion<Value, Format>(
  of value: () async throws -> Value,
  as strategy: Snapshotting<Value, Format>,
  context: AssertionContext
) async -> String? {
  let assertion: ResolvedAssertion
  let (snapshot, encoded): (Format, Data?)
  do {
    assertion = try resolve(context, strategy)
    (snapshot, encoded) = try await suspendForSnapshot(of: value, as: strategy, assertion: assertion)
  } catch {
    return error.description
  }
  return compare(snapshot, encoded, as: strategy, assertion: assertion)
}

/// Step 1: the configuration and the reference's location, noted as used.
private func resolve<Value, Format>(
  _ context: AssertionContext,
  _ strategy: Snapshotting<Value, Format>
) throws(AssertionFailure) -> ResolvedAssertion {
  let assertion = try resolveAssertion(context, pathExtension: strategy.pathExtension)
  ReferenceUsageLog.note(
    assertion.referencePath,
    variant: assertion.variant?.name,
    environment: assertion.environment
  )
  return assertion
}

/// Steps 2 and 3: decide against the reference, and act on the decision.
private func compare<Value, Format>(
  _ snapshot: Format,
  _ encoded: Data?,
  as strategy: Snapshotting<Value, Format>,
  assertion: ResolvedAssertion
) -> String? {
  let diffing = strategy.diffing
  // A folder reference is first compared with the snapshot as both are read, a piece at a time,
  // so an unchanged folder is never held in memory; otherwise it is read whole and decided as
  // any reference.
  if assertion.recordMode.mode != .all, let matchesFolder = diffing.matchesFolder,
    matchesFolder(snapshot, assertion.referenceURL)
  {
    return act(on: .matched, snapshotData: Data(), diffing: diffing, assertion: assertion)
  }
  let decision = decideSnapshot(
    recordMode: assertion.recordMode,
    // Record mode `all` writes whatever is there; it need not be read.
    reference: assertion.recordMode.mode == .all
      ? .success(.missing)
      : Result { () throws(SnapshotFileError) in
        diffing.storesFolder
          ? try ReferenceFile.readFolder(assertion.referenceURL)
          : try ReferenceFile.read(assertion.referenceURL)
      },
    snapshot: snapshot,
    snapshotData: encoded,
    diffing: diffing,
    referenceURL: assertion.referenceURL
  )
  // A format that encodes only to write is encoded here, when the outcome may write a file.
  let snapshotData: Data
  switch decision {
  case .matched, .failed: snapshotData = encoded ?? Data()
  default: snapshotData = encoded ?? diffing.toData(snapshot)
  }
  return act(on: decision, snapshotData: snapshotData, diffing: diffing, assertion: assertion)
}

/// Carries out a decision; returns the failure message, or `nil` for a match.
private func act<Format>(
  on decision: SnapshotDecision,
  snapshotData: Data,
  diffing: Diffing<Format>,
  assertion: ResolvedAssertion
) -> String? {
  switch decision {
  case .matched:
    clearFailureRecord(assertion)
    return nil
  case .recorded(let reason):
    return recordReference(
      snapshotData,
      reason: reason,
      asFolder: diffing.storesFolder,
      assertion: assertion
    )
  case .missing(let reason):
    return reportMissingReference(
      reason,
      snapshotData: snapshotData,
      diffing: diffing,
      assertion: assertion
    )
  case .mismatch(let mismatch):
    return reportMismatch(
      mismatch,
      snapshotData: snapshotData,
      diffing: diffing,
      assertion: assertion
    )
  case .failed(let error):
    return error.description
  }
}

/// Step 2's input: the value, turned into the strategy's format within the timeout, and the bytes
/// that recording it would write (`nil` for a format that encodes only to write). A strategy that reports it cannot snapshot the value
/// (``UnavailableSnapshot``), while taking the snapshot or encoding it, fails the assertion here,
/// before anything is compared or written.
private func takeSnapshot<Value, Format>(
  of value: () throws -> Value,
  as strategy: Snapshotting<Value, Format>,
  assertion: ResolvedAssertion
) throws(AssertionFailure) -> (Format, Data?) {
  let outcome = Result { () throws -> ((Format, Data?), StrategyReports) in
    try StrategyReports.collecting {
      // Scoped scrubbers clean a text snapshot before it is encoded, compared or written.
      let snapshot = try ScopedScrubbers.applying(
        assertion.scrubbers, pathExtension: strategy.pathExtension
      ) {
        try awaitSnapshot(
          strategy.snapshot(try value()),
          timeout: assertion.context.timeout,
          referenceURL: assertion.referenceURL
        )
      }
      return encode(snapshot, as: strategy)
    }
  }
  return try taken(outcome, assertion: assertion)
}

/// ``takeSnapshot(of:as:assertion:)``, suspending while the strategy works.
private func suspendForSnapshot<Value, Format>(
  of value: () async throws -> Value,
  as strategy: Snapshotting<Value, Format>,
  assertion: ResolvedAssertion
) async throws(AssertionFailure) -> (Format, Data?) {
  let outcome: Result<((Format, Data?), StrategyReports), any Error>
  do {
    outcome = .success(
      try await StrategyReports.collecting {
        let snapshot = try await ScopedScrubbers.applying(
          assertion.scrubbers, pathExtension: strategy.pathExtension
        ) {
          try await suspendForSnapshot(
            strategy.snapshot(try await value()),
            timeout: assertion.context.timeout,
            referenceURL: assertion.referenceURL
          )
        }
        return encode(snapshot, as: strategy)
      }
    )
  } catch {
    outcome = .failure(error)
  }
  return try taken(outcome, assertion: assertion)
}

/// The snapshot and the bytes recording it would write (`nil` for a format that encodes only to
/// write).
private func encode<Value, Format>(
  _ snapshot: Format,
  as strategy: Snapshotting<Value, Format>
) -> (Format, Data?) {
  if let check = strategy.diffing.encodesOnlyToWrite {
    check(snapshot)
    return (snapshot, nil)
  }
  return (snapshot, strategy.diffing.toData(snapshot))
}

/// The snapshot taken, or the failure that taking it ended in; warnings reported either way.
private func taken<Format>(
  _ outcome: Result<((Format, Data?), StrategyReports), any Error>,
  assertion: ResolvedAssertion
) throws(AssertionFailure) -> (Format, Data?) {
  let (taken, reports): ((Format, Data?), StrategyReports)
  do {
    (taken, reports) = try outcome.get()
  } catch let error as SnapshotTimeoutError {
    throw AssertionFailure(description: error.description)
  } catch {
    throw AssertionFailure(
      description: """
        Could not produce the value to snapshot for "\(assertion.referencePath)": the expression \
        threw \(error).
        """
    )
  }
  for warning in reports.warnings { reportWarning(warning, context: assertion.context) }
  if let unavailable = reports.unavailable {
    throw AssertionFailure(
      description: FailureMessage.unavailable(unavailable, assertion.referencePath)
    )
  }
  return taken
}
