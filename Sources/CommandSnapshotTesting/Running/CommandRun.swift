import Foundation

/// What a command did: its output, what was dropped of it, and how it ended.
struct CommandRun: Sendable, Equatable {
  /// How the program ended.
  enum Termination: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
    /// It ran past the command's timeout and was killed, with its process group.
    case timedOut
  }

  /// The first ``Command/outputLimit`` bytes of standard output.
  var standardOutput = Data()
  /// The first ``Command/outputLimit`` bytes of standard error.
  var standardError = Data()
  /// How many bytes of standard output were read past the limit and not kept.
  var droppedOutputBytes = 0
  /// How many bytes of standard error were read past the limit and not kept.
  var droppedErrorBytes = 0
  var termination: Termination = .exited(0)
  /// Whether a process the program started outside its process group (a daemon, with
  /// `setsid`) still held an output open a moment after the program exited; what it wrote later
  /// was not read.
  var outputHeldOpen = false
}

/// Why a command could not be run at all.
struct CommandError: Error, Equatable, CustomStringConvertible {
  enum Cause: Equatable {
    case missing
    case directory
    case notExecutable
    case spawnFailed(errno: Int32)
    case workingDirectoryMissing(String)
    /// The argument at this index (from 0, the program's name not counted) holds a NUL byte.
    case argumentHoldsNUL(index: Int, argument: String)
    /// An environment variable whose name is empty or holds `=` or NUL, or whose value holds NUL.
    case environmentVariableInvalid(name: String, why: String)
    /// A timeout that is zero, negative or not a number.
    case timeoutInvalid(Double)
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
      #"Cannot run "\#(path)": \#(String(cString: strerror(code))) (errno \#(code))."#
    case .workingDirectoryMissing(let folder):
      #"Cannot run "\#(path)": its working directory "\#(folder)" is not a folder."#
    case .argumentHoldsNUL(let index, let argument):
      """
      Cannot run "\(path)": argument \(index) (\(argument.debugDescription)) holds a NUL byte, \
      which a program cannot receive (it would see the argument cut there). Remove the NUL.
      """
    case .environmentVariableInvalid(let name, let why):
      """
      Cannot run "\(path)": the environment variable \(name.debugDescription) \(why), which a \
      program's environment cannot hold.
      """
    case .timeoutInvalid(let timeout):
      """
      Cannot run "\(path)": its timeout is \(timeout); `timeout` must be a positive number of \
      seconds (or .infinity for none).
      """
    }
  }
}

extension Command {
  /// Why this command cannot start, found before trying: a missing file, a folder, a file without
  /// the execute permission, a working directory that is not there.
  func preflightError() -> CommandError? {
    let path = executable.path
    // What the program would receive differently from what the recorded command line shows.
    if let index = arguments.firstIndex(where: { $0.utf8.contains(0) }) {
      return CommandError(
        path: path, cause: .argumentHoldsNUL(index: index, argument: arguments[index]))
    }
    for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
      if let why = Self.whyUnpassable(name: name, value: value) {
        return CommandError(path: path, cause: .environmentVariableInvalid(name: name, why: why))
      }
    }
    guard timeout > 0 else {  // false for NaN too
      return CommandError(path: path, cause: .timeoutInvalid(timeout))
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return CommandError(path: path, cause: .missing)
    }
    if isDirectory.boolValue { return CommandError(path: path, cause: .directory) }
    guard FileManager.default.isExecutableFile(atPath: path) else {
      return CommandError(path: path, cause: .notExecutable)
    }
    if let folder = workingDirectory?.path {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
        isFolder.boolValue
      else {
        return CommandError(path: path, cause: .workingDirectoryMissing(folder))
      }
    }
    return nil
  }

  /// Why an environment variable cannot reach a program as it is written, or `nil`: the
  /// environment is a list of `name=value` C strings.
  private static func whyUnpassable(name: String, value: String) -> String? {
    if name.isEmpty { return "has an empty name" }
    if name.contains("=") { return #"has "=" in its name"# }
    if name.utf8.contains(0) { return "has a NUL byte in its name" }
    if value.utf8.contains(0) { return "has a NUL byte in its value" }
    return nil
  }
}
