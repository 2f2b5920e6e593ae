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
  let scoped = SnapshotTestingConfiguration.current
  let global = GlobalConfiguration.shared
  let recordMode: ResolvedRecordMode
  do {
    recordMode = try resolveRecordMode(
      argument: context.record,
      scoped: scoped?.record,
      global: global.record,
      environment: environment
    )
  } catch {
    throw AssertionFailure(description: error.description)
  }
  let variant: ResolvedVariant?
  do {
    variant = try resolveVariant(scoped: ScopedVariant.current, environment: environment)
  } catch {
    throw AssertionFailure(description: error.description)
  }
  let identifier = context.name.map(ReferenceIdentifier.named) ?? .counter(nextCounter(context))
  let location: ReferenceLocation
  do {
    location = try locateReference(
      filePath: context.filePath,
      testName: context.testName,
      identifier: identifier,
      pathExtension: pathExtension,
      snapshotDirectory: context.snapshotDirectory,
      referenceRoot: environment[.referenceDirectory],
      variant: variant?.name
    )
  } catch {
    throw AssertionFailure(description: error.description)
  }
  let referenceURL = location.referenceURL
  return ResolvedAssertion(
    context: context,
    recordMode: recordMode,
    variant: variant,
    diffTool: scoped?.diffTool ?? global.diffTool ?? .default,
    environment: environment,
    location: location,
    pathExtension: pathExtension,
    artifacts: ArtifactsFolder(environment),
    referenceURL: referenceURL,
    referencePath: referenceURL.path
  )
}

/// The next number for an unnamed snapshot of this test, per reference folder.
private func nextCounter(_ context: AssertionContext) -> Int {
  let folder = context.snapshotDirectory ?? context.filePath
  return SnapshotCounter.current.next(for: "\(folder)|\(context.testName)")
}
