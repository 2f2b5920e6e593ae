import ChildProcesses
import Foundation

/// Runs a program to its end through the package's one spawner, without blocking Swift's
/// cooperative pool: the test support's PostgreSQL binaries and `psql`.
enum ChildProgram {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `path` with `arguments` and returns what it did; throws if it could not start.
  static func run(
    _ path: String,
    _ arguments: [String],
    timeout: Double = 60,
    environment: [String: String] = [:]
  ) async throws -> ChildRun {
    var environment = environment
    environment["PATH"] = "/usr/bin:/bin:/usr/sbin:/sbin"
    environment["LANG"] = "C.UTF-8"
    let request = ChildRequest(
      path: path,
      arguments: arguments,
      environment: environment,
      timeout: timeout
    )
    let result = await withCheckedContinuation { continuation in
      ProcessGroupRunner.start(request, name: "database test child") {
        continuation.resume(returning: $0)
      }
    }
    switch result {
    case .success(let run): return run
    case .failure(let failure):
      throw Failure(description: "Could not start \(path) (error \(failure.code)).")
    }
  }

  /// Runs a program that must succeed; throws with its standard error if it does not.
  @discardableResult
  static func succeed(_ path: String, _ arguments: [String], timeout: Double = 60) async throws
    -> String
  {
    let run = try await run(path, arguments, timeout: timeout)
    let output = String(decoding: run.standardOutput, as: UTF8.self)
    guard run.termination == .exited(0) else {
      let error = String(decoding: run.standardError, as: UTF8.self)
      throw Failure(
        description:
          "\(path) \(arguments.joined(separator: " ")) ended \(run.termination):\n\(error)\(output)"
      )
    }
    return output
  }
}
