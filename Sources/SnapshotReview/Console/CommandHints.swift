import Foundation
import RunRecord

/// How the tool names paths and spells the commands it suggests, so that they can be pasted.
package struct CommandHints: Sendable {
  /// The command that runs the tool: `swift run snapshot-testing`.
  package var invocation: String
  /// Options to repeat in every suggested command (`--artifacts DIR` when one was given).
  package var sharedOptions: [String]
  /// Paths under this folder are shown relative to it.
  package var packageRoot: URL

  package init(
    invocation: String = "swift run snapshot-testing",
    sharedOptions: [String] = [],
    packageRoot: URL
  ) {
    self.invocation = invocation
    self.sharedOptions = sharedOptions
    self.packageRoot = packageRoot
  }

  /// The hints of a command given these options: each is repeated in the commands it suggests,
  /// and so is the artifacts folder `SNAPSHOT_ARTIFACTS` named when no `--artifacts` was given,
  /// since the shell the command is pasted into may not have that variable (the tests' run set
  /// it on their own command line). That folder is spelled relative to the package when it lies
  /// inside it and the tool runs there (no `--root`).
  package static func forOptions(
    artifacts: [String], root: String?, allPackages: Bool, packageRoot: URL,
    environment: RunEnvironment
  ) -> CommandHints {
    var shared: [String] = []
    var folders = artifacts
    if artifacts.isEmpty, let folder = environment[.artifacts], !folder.isEmpty {
      let here = CommandHints(packageRoot: packageRoot)
      folders = [root == nil ? here.display(folder) : folder]
    }
    for folder in folders { shared += ["--artifacts", folder] }
    if let root { shared += ["--root", root] }
    if allPackages { shared.append("--all-packages") }
    return CommandHints(sharedOptions: shared, packageRoot: packageRoot)
  }

  /// `swift run snapshot-testing <subcommand> <options> <arguments>`, quoted for a POSIX shell.
  package func command(_ subcommand: String, _ arguments: [String] = []) -> String {
    ([invocation, subcommand] + (sharedOptions + arguments).map(shellQuoted)).joined(separator: " ")
  }

  /// The command that accepts exactly this failure: by its reference's path, or for an inline
  /// snapshot by its test file and line (`Tests/AppTests/UserTests.swift:12`).
  package func acceptCommand(for failure: PendingFailure) -> String {
    command("accept", [name(of: failure)])
  }

  /// How the tool names a failure: its reference's path, or an inline snapshot's `file:line`.
  package func name(of failure: PendingFailure) -> String {
    let path = display(failure.referenceURL?.path ?? failure.record.referencePath)
    return failure.isInline ? "\(path):\(failure.record.line)" : path
  }

  /// Where the whole of what `review` and the report show of a failure is: the patch, or for a
  /// missing reference the new snapshot; `nil` for an inline snapshot (its record holds it).
  package func wholeDifference(of failure: PendingFailure) -> String? {
    guard !failure.isInline else { return nil }
    if failure.record.reason == .mismatch, let patch = failure.file(.patch) {
      return display(patch.path)
    }
    return display(failure.failedSnapshotURL.path)
  }

  /// `path` relative to the package root when it lies beneath it.
  package func display(_ path: String) -> String {
    let root = packageRoot.standardizedFileURL.path
    let prefix = root.hasSuffix("/") ? root : root + "/"
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    return standardized.hasPrefix(prefix) ? String(standardized.dropFirst(prefix.count)) : path
  }
}
