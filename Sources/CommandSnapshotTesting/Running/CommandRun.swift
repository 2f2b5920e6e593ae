import ChildProcesses
import Foundation
import RunRecord

/// What a command did: its output, what was dropped of it, and how it ended (the process
/// runner's record, under the name the command module's code reads it by).
typealias CommandRun = ChildRun

/// Why a command could not be run at all.
struct CommandError: Error, Equatable, CustomStringConvertible {
  enum Cause: Equatable {
    case missing
    case directory
    case notExecutable
    case spawnFailed(errno: Int32)
    case workingDirectoryMissing(String)
    /// The argument at this index (counted from 1) holds a NUL byte.
    case argumentHoldsNUL(index: Int, argument: String)
    /// An environment key is empty, or holds `=` or a NUL byte.
    case invalidEnvironmentKey(String)
    /// The value of this environment key holds a NUL byte.
    case environmentValueHoldsNUL(key: String)
    /// The timeout is zero, negative or not a number.
    case invalidTimeout(Double)
  }

  var path: String
  var cause: Cause

  var description: String {
    switch cause {
    case .missing:
      """
      No program at "\(path)". If it is one of this package's executables, make the test target \
      depend on it so that `swift test` builds it, and look it up with `productURL(_:)`.
      """
    case .directory:
      #"Cannot run "\#(path)": it is a folder, not a program."#
    case .notExecutable:
      """
      Cannot run "\(path)": the file is not executable (chmod +x it, or run it with its \
      interpreter).
      """
    case .spawnFailed(let code):
      #"Cannot run "\#(path)": \#(SystemError(code).text) (errno \#(code))."#
    case .workingDirectoryMissing(let folder):
      #"Cannot run "\#(path)": its working directory "\#(folder)" is not a folder."#
    case .argumentHoldsNUL(let index, let argument):
      """
      Cannot run "\(path)": argument \(index), \(visible(argument)), holds a NUL byte, which \
      would end it there; a program's arguments cannot contain one.
      """
    case .invalidEnvironmentKey(let key):
      """
      Cannot run "\(path)": the environment key \(visible(key)) is not a variable name (it is \
      empty, or holds "=" or a NUL byte).
      """
    case .environmentValueHoldsNUL(let key):
      """
      Cannot run "\(path)": the value of the environment variable \(visible(key)) holds a NUL \
      byte, which would end it there.
      """
    case .invalidTimeout(let timeout):
      """
      Cannot run "\(path)": its `timeout` is \(timeout); it must be a positive number of seconds.
      """
    }
  }

  /// The text quoted, with its NUL bytes shown as `\0`.
  private func visible(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\u{0}", with: "\\0") + "\""
  }
}

extension Command {
  /// Why this command cannot start, found before trying: a timeout that is not a positive number,
  /// an argument or environment entry that cannot be passed whole (a NUL byte, a key holding
  /// `=`), a missing file, a folder, a file without the execute permission, a working directory
  /// that is not there.
  func preflightError() -> CommandError? {
    let path = executable.path
    guard timeout > 0, timeout.isFinite || timeout == .infinity else {
      return CommandError(path: path, cause: .invalidTimeout(timeout))
    }
    for (index, argument) in arguments.enumerated() where argument.utf8.contains(0) {
      return CommandError(path: path, cause: .argumentHoldsNUL(index: index + 1, argument: argument))
    }
    for (key, value) in environment.sorted(by: { $0.key < $1.key }) {
      if key.isEmpty || key.utf8.contains(UInt8(ascii: "=")) || key.utf8.contains(0) {
        return CommandError(path: path, cause: .invalidEnvironmentKey(key))
      }
      if value.utf8.contains(0) {
        return CommandError(path: path, cause: .environmentValueHoldsNUL(key: key))
      }
    }
    guard let isDirectory = SystemCalls.isFolder(path) else {
      return CommandError(path: path, cause: .missing)
    }
    if isDirectory { return CommandError(path: path, cause: .directory) }
    guard FileManager.default.isExecutableFile(atPath: path) else {
      return CommandError(path: path, cause: .notExecutable)
    }
    if let folder = workingDirectory?.path {
      guard SystemCalls.isFolder(folder) == true else {
        return CommandError(path: path, cause: .workingDirectoryMissing(folder))
      }
    }
    return nil
  }
}
