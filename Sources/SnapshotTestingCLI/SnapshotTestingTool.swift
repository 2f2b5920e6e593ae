import ArgumentParser
import Foundation
import SnapshotReview

/// `snapshot-testing`: review, accept, reject, prune and optimize snapshots, and write an HTML
/// report.
@main
struct SnapshotTestingTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapshot-testing",
    abstract: "Review, accept, prune and optimize the snapshots of a SnapshotTesting suite.",
    discussion: """
      Failed assertions are recorded under the artifacts folder (SNAPSHOT_ARTIFACTS, or the \
      system's temporary folder). Run this tool from the package's folder after `swift test`.

      \(ToolExitCode.helpText)
      """,
    subcommands: [
      ReviewCommand.self, AcceptCommand.self, RejectCommand.self, PruneCommand.self,
      ReportCommand.self, OptimizeCommand.self,
    ]
  )

  /// Parses and runs a command; usage errors exit with 2 instead of ArgumentParser's 64, so every
  /// code the tool returns is one of ``ToolExitCode``.
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      if exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
        Foundation.exit(ToolExitCode.usage.rawValue)
      }
      exit(withError: error)
    }
  }
}

extension ToolExitCode {
  /// Ends the command with this status (without a message: the command has printed its own).
  var exitCode: ExitCode { ExitCode(rawValue) }
}
