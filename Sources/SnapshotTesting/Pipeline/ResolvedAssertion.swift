import Foundation
import RunRecord

/// Everything an assertion needs before it takes the snapshot, read once: the configuration in
/// scope, the environment, where the reference lives and where failures go.
struct ResolvedAssertion {
  var context: AssertionContext
  var recordMode: ResolvedRecordMode
  /// The reference variant in effect (scope or trait, else `SNAPSHOT_TESTING_VARIANT`), if any.
  var variant: ResolvedVariant?
  var diffTool: SnapshotTestingConfiguration.DiffTool
  /// The scrubbers in scope, for a text snapshot.
  var scrubbers: [Scrubber]
  var environment: RunEnvironment
  var location: ReferenceLocation
  /// The strategy's path extension, if it has one.
  var pathExtension: String?
  var artifacts: ArtifactsFolder
  /// `location.referenceURL` and its path, computed once: a matching assertion needs each
  /// more than once, and building a `URL` or asking for its path costs as much as reading a
  /// small reference.
  var referenceURL: URL
  var referencePath: String
}

/// A failure that ends an assertion before it compares anything; its message is the report.
struct AssertionFailure: Error, CustomStringConvertible {
  var description: String
}

/// Step 1 of an assertion: resolves the record mode and diff tool (argument, scope, globals,
/// environment, in that order) and the variant (scope, environment), then numbers the snapshot and locates its reference.
///
/// The counter advances only for an unnamed snapshot whose configuration is valid, as upstream's
/// does, so a failed assertion does not shift the numbers of the ones after it.
func resolveAssertion(
  _ context: AssertionContext,
  pathExtension: String?
) throws(AssertionFailure) -> ResolvedAssertion {
  let environment = RunEnvironment.current
  let settings = resolveSettings(recordArgument: context.record, environment: environment)
  let recordMode: ResolvedRecordMode
  let variant: ResolvedVariant?
  do {
    recordMode = try settings.record.get()
    variant = try settings.variant.get()
  } catch {
    throw AssertionFailure(description: "\(error)")
  }
  let identifier =
    context.name.map(ReferenceIdentifier.named)
    ?? .counter(nextCounter(context, scoped: settings.counter))
  let testCase = TestCaseArguments.current
  let namesByArguments = settings.naming == .arguments && testCase != nil
  let location: ReferenceLocation
  do {
    location = try locateReference(
      filePath: context.filePath,
      testName: context.testName,
      identifier: identifier,
      pathExtension: pathExtension,
      snapshotDirectory: context.snapshotDirectory,
      referenceRoot: environment[.referenceDirectory],
      variant: variant?.name,
      testCase: namesByArguments ? testCase?.fileNamePart : nil
    )
  } catch {
    throw AssertionFailure(description: error.description)
  }
  let referenceURL = location.referenceURL
  if let testCase, !namesByArguments {
    try ReferenceClaims.shared.claim(referenceURL.path, by: testCase, context: context)
  }
  return ResolvedAssertion(
    context: context,
    recordMode: recordMode,
    variant: variant,
    diffTool: settings.diffTool,
    scrubbers: settings.scrubbers,
    environment: environment,
    location: location,
    pathExtension: pathExtension,
    artifacts: ArtifactsFolder(environment),
    referenceURL: referenceURL,
    referencePath: referenceURL.path
  )
}

/// The next number for an unnamed snapshot of this test, per reference folder.
private func nextCounter(_ context: AssertionContext, scoped: SnapshotCounter?) -> Int {
  let folder = context.snapshotDirectory ?? context.filePath
  return SnapshotCounter.current(scoped: scoped).next(for: "\(folder)|\(context.testName)")
}
