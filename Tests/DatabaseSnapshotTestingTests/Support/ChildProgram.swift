import ChildProcesses
import Foundation

/// Runs a program to its end through the package's one spawner, without blocking Swift's
/// cooperative pool: the test support's PostgreSQL binaries and `psql`.
enum ChildProgram {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `path` with `arguments` and returns what `finish` makes of what it did, made on the
  /// runner's thread (so that reading a large output holds no thread of the pool); throws if it
  /// could not start.
  static func run<T: Sendable>(
    _ path: String,
    _ arguments: [String],
    timeout: Double = 300,
    environment: [String: String] = [:],
    finish: @escaping @Sendable (ChildRun) -> T
  ) async throws -> T {
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
        continuation.resume(returning: $0.map(finish))
      }
    }
    switch result {
    case .success(let made): return made
    case .failure(let failure):
      throw Failure(description: "Could not start \(path) (error \(failure.code)).")
    }
  }

  /// Runs a program that must succeed and returns its standard output; throws with its standard
  /// error if it does not succeed.
  @discardableResult
  static func succeed(_ path: String, _ arguments: [String], timeout: Double = 300) async throws
    -> String
  {
    let finished = try await run(path, arguments, timeout: timeout, finish: { $0 })
    let output = String(decoding: finished.standardOutput, as: UTF8.self)
    guard finished.termination == .exited(0) else {
      let error = String(decoding: finished.standardError, as: UTF8.self)
      throw Failure(
        description:
          "\(path) \(arguments.joined(separator: " ")) ended \(finished.termination):\n\(error)\(output)"
      )
    }
    return output
  }
}
