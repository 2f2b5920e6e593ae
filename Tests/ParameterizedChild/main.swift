import Foundation
import SnapshotTesting
import Testing

// The child process of `ParameterizedReferenceTests`: two parameterized tests that Swift Testing
// runs here as in a user's test bundle (cases in parallel, `--repetitions 3`). A program of its
// own rather than tests of the bundle enabled by an environment variable, so that no entry point
// shows up as a skipped test in a normal run. Takes Swift Testing's own arguments; the folder the
// outcomes go to is `PARAMETERIZED_CHILD_FOLDER`.

/// One assertion per case, its outcome written to a file of its own.
func assertAndReport(_ n: Int) throws {
  let folder = try #require(ProcessInfo.processInfo.environment["PARAMETERIZED_CHILD_FOLDER"])
  let message = verifySnapshot(
    of: "price \(n)\n",
    as: .lines,
    snapshotDirectory: folder + "/references",
    testName: "price(_:)"
  )
  let outcome: String
  switch message {
  case nil: outcome = "matched"
  case let message? where message.contains("Recorded the snapshot"): outcome = "recorded"
  case let message?: outcome = message
  }
  try Data(outcome.utf8).write(
    to: URL(fileURLWithPath: folder + "/outcome-\(n)-\(UUID().uuidString)"))
}

@Test(.snapshots, arguments: [1, 2, 3])
func childSharesOneReference(_ n: Int) throws {
  try assertAndReport(n)
}

@Test(.snapshots(naming: .arguments), arguments: [1, 2, 3])
func childNamesByArguments(_ n: Int) throws {
  try assertAndReport(n)
}

exit(await Testing.__swiftPMEntryPoint())
