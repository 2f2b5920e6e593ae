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

  /// `path` relative to the package root when it lies beneath it.
  package func display(_ path: String) -> String {
    let root = packageRoot.standardizedFileURL.path
    let prefix = root.hasSuffix("/") ? root : root + "/"
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    return standardized.hasPrefix(prefix) ? String(standardized.dropFirst(prefix.count)) : path
  }
}
