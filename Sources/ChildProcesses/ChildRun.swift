import Foundation

/// A program to run to its end with its outputs read: what ``ProcessGroupRunner`` takes.
package struct ChildRequest: Sendable {
  package var path: String
  package var arguments: [String]
  /// The child's whole environment (nothing of ours is added).
  package var environment: [String: String]
  package var workingDirectory: String?
  /// Its standard input; nil: `/dev/null`.
  package var standardInput: Data?
  /// Seconds before the program and its process group are killed; `.infinity`: never.
  package var timeout: Double
  /// Bytes of each output kept; the rest is read and counted.
  package var outputLimit: Int

  package init(
    path: String, arguments: [String], environment: [String: String],
    workingDirectory: String? = nil, standardInput: Data? = nil,
    timeout: Double = .infinity, outputLimit: Int = 64 * 1024 * 1024
  ) {
    self.path = path
    self.arguments = arguments
    self.environment = environment
    self.workingDirectory = workingDirectory
    self.standardInput = standardInput
    self.timeout = timeout
    self.outputLimit = outputLimit
  }
}

/// What a program did: its output, what was dropped of it, and how it ended.
package struct ChildRun: Sendable, Equatable {
  /// How the program ended.
  package enum Termination: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
    /// It ran past its timeout and was killed, with its process group.
    case timedOut
  }

  /// The first `outputLimit` bytes of standard output.
  package var standardOutput = Data()
  /// The first `outputLimit` bytes of standard error.
  package var standardError = Data()
  /// How many bytes of standard output were read past the limit and not kept.
  package var droppedOutputBytes = 0
  /// How many bytes of standard error were read past the limit and not kept.
  package var droppedErrorBytes = 0
  package var termination: Termination = .exited(0)
  /// Whether a process the program started outside its process group (a daemon, with
  /// `setsid`) still held an output open a moment after the program exited; what it wrote later
  /// was not read.
  package var outputHeldOpen = false

  package init() {}
}
