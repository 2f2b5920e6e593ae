import ChildProcesses
import Foundation

/// Runs a ``Command`` through the package's one process runner (`ChildProcesses`'
/// `ProcessGroupRunner`: its own process group, both outputs read as they come, killed with its
/// group on a timeout and once it exits), after checking what can be checked before trying.
enum CommandRunner {
  /// Runs `command` on a new thread and hands its result to `completion`, on that thread.
  static func start(
    _ command: Command,
    completion: @escaping @Sendable (Result<CommandRun, CommandError>) -> Void
  ) {
    if let error = command.preflightError() { return completion(.failure(error)) }
    let path = command.executable.path
    ProcessGroupRunner.start(
      request(command), name: "SnapshotTesting: \(command.executable.lastPathComponent)"
    ) { result in
      completion(result.mapError { CommandError(path: path, cause: .spawnFailed(errno: $0.code)) })
    }
  }

  /// Runs `command` to its end on the calling thread.
  static func run(_ command: Command) -> Result<CommandRun, CommandError> {
    if let error = command.preflightError() { return .failure(error) }
    let path = command.executable.path
    return ProcessGroupRunner.run(request(command)).mapError {
      CommandError(path: path, cause: .spawnFailed(errno: $0.code))
    }
  }

  private static func request(_ command: Command) -> ChildRequest {
    ChildRequest(
      path: command.executable.path,
      arguments: command.arguments,
      environment: command.environment,
      workingDirectory: command.workingDirectory?.path,
      standardInput: command.standardInput,
      timeout: command.timeout,
      outputLimit: command.outputLimit
    )
  }
}
