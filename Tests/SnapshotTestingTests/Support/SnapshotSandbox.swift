import Foundation
import RunRecord

@testable import SnapshotTesting

/// A temporary snapshot folder and artifacts folder, with a controlled environment, so an
/// assertion's effects on disk can be checked without touching the repository or the process's
/// environment.
struct SnapshotSandbox: Sendable {
  let snapshots: URL
  let artifacts: URL
  var environment: RunEnvironment

  init(root: URL, environment: RunEnvironment = [:]) {
    snapshots = root.appendingPathComponent("__Snapshots__/SandboxTests", isDirectory: true)
    artifacts = root.appendingPathComponent("artifacts", isDirectory: true)
    var environment = environment
    environment[.artifacts] = environment[.artifacts] ?? artifacts.path
    self.environment = environment
  }

  /// Runs `verifySnapshot` for `value` with the sandbox's folders and environment.
  func verify<Value, Format>(
    _ value: @autoclosure () throws -> Value,
    as strategy: Snapshotting<Value, Format>,
    named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil,
    timeout: TimeInterval = 5,
    testName: String = "sandbox()"
  ) -> String? {
    do {
      return try RunEnvironment.withOverride(environment) { () -> String? in
        verifySnapshot(
          of: try value(),
          as: strategy,
          named: name,
          record: record,
          snapshotDirectory: snapshots.path,
          timeout: timeout,
          testName: testName
        )
      }
    } catch {
      // `verifySnapshot` reports a throwing value in its message; it never throws itself.
      return "unexpected error: \(error)"
    }
  }

  func reference(_ fileName: String) -> URL {
    snapshots.appendingPathComponent(fileName, isDirectory: false)
  }

  /// A file of a failure: the artifacts folder mirrors the reference folder's path.
  func artifact(_ fileName: String) -> URL {
    artifactsFolder.appendingPathComponent(fileName, isDirectory: false)
  }

  /// The folder of the sandbox's failures under the artifacts folder in effect.
  var artifactsFolder: URL {
    ArtifactsFolder(rootPath: environment[.artifacts] ?? artifacts.path)
      .folder(forReferenceFolder: snapshots.path)
  }

  func write(_ text: String, to fileName: String) throws {
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: reference(fileName))
  }
}
