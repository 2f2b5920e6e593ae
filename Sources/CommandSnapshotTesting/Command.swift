import RunRecord
import Foundation

/// A program to run, with its arguments, environment, working directory, standard input and a
/// time limit: the value that ``SnapshotTesting/Snapshotting/output`` and
/// ``SnapshotTesting/Snapshotting/terminal`` snapshot.
///
/// ```swift
/// let greet = Command(executable: productURL("mytool"), arguments: ["greet", "--name", "Blob"])
/// assertSnapshot(of: greet, as: .output)
/// assertSnapshot(of: greet.withStandardInput("yes\n"), as: .output)
/// ```
///
/// The program runs when the snapshot is taken, in a process group of its own: when it runs past
/// its ``timeout``, or exits leaving children behind, the whole group is killed.
public struct Command: Sendable, Hashable {
  /// The program's file.
  public var executable: URL

  /// The arguments, without the program's name.
  public var arguments: [String]

  /// The environment the program runs with; by default the test process's own.
  public var environment: [String: String]

  /// The folder the program runs in, or `nil` for the test process's own.
  public var workingDirectory: URL?

  /// The bytes the program reads from its standard input, or `nil` for none (it reads end of
  /// file at once, so a program that asks a question never waits for an answer).
  public var standardInput: Data?

  /// How long the program may run, in seconds, before it and its children are killed and the
  /// assertion fails. It must be positive (`.infinity` waits for ever); zero, a negative number
  /// or NaN fails the assertion naming it. The assertion waits this long even when its own
  /// `timeout:` is shorter.
  public var timeout: TimeInterval

  /// How many bytes of each of standard output and standard error are kept. A program that
  /// writes more is read to its end without keeping the rest, and the assertion fails naming
  /// the limit: this bounds the memory a run takes.
  public var outputLimit: Int

  /// The default ``outputLimit``: 16 MiB for each stream.
  public static let defaultOutputLimit = 16 * 1024 * 1024

  /// A command that runs `executable` with `arguments`.
  ///
  /// - Parameters:
  ///   - executable: The program's file, for example ``productURL(_:)`` of one of the package's
  ///     own executables, or `URL(fileURLWithPath: "/bin/sh")`.
  ///   - arguments: The arguments, each passed as it is (no shell splits or expands them).
  ///   - environment: The environment; by default the test process's own.
  ///   - workingDirectory: The folder to run in; by default the test process's own.
  ///   - timeout: Seconds before the program and its children are killed; 60 by default.
  public init(
    executable: URL,
    arguments: [String] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    workingDirectory: URL? = nil,
    timeout: TimeInterval = 60
  ) {
    self.executable = executable
    self.arguments = arguments
    self.environment = environment
    self.workingDirectory = workingDirectory
    self.standardInput = nil
    self.timeout = timeout
    self.outputLimit = Command.defaultOutputLimit
  }

  /// The same command reading `text`, as UTF-8, from its standard input.
  ///
  /// ```swift
  /// assertSnapshot(of: greet.withStandardInput("yes\n"), as: .output)
  /// ```
  public func withStandardInput(_ text: String) -> Command {
    withStandardInput(Data(text.utf8))
  }

  /// The same command reading `data` from its standard input.
  public func withStandardInput(_ data: Data) -> Command {
    var command = self
    command.standardInput = data
    return command
  }

  /// The command line as a shell would need it typed: the program's file name (not its folder,
  /// which differs between machines) and each argument quoted when it has to be.
  ///
  /// ```swift
  /// Command(executable: URL(fileURLWithPath: "/bin/echo"), arguments: ["a b"]).commandLine
  /// // echo 'a b'
  /// ```
  public var commandLine: String {
    ([executable.lastPathComponent] + arguments).map(shellQuoted).joined(separator: " ")
  }
}
