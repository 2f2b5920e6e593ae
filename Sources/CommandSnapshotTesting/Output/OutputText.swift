import Foundation

/// The text of ``SnapshotTesting/Snapshotting/output``: the command line, standard output,
/// standard error under a heading, and how the program ended.
enum OutputText {
  static func render(_ command: Command, _ run: CommandRun) -> String {
    var text = "$ \(command.commandLine)\n"
    text += stream(run.standardOutput)
    if !run.standardError.isEmpty {
      text += "[stderr]\n" + stream(run.standardError)
    }
    return text + status(run.termination)
  }

  /// The stream without escape sequences, ending with a line break; one that did not end with a
  /// line break says so, so that `printf 'a'` and `echo a` differ.
  private static func stream(_ data: Data) -> String {
    guard !data.isEmpty else { return "" }
    let text = EscapeSequenceScanner.strippingEscapes(from: [UInt8](data))
    return text.hasSuffix("\n") ? text : text + "\n[no newline at end]\n"
  }

  /// `[exit 0]`, or `[signal 15 SIGTERM]`.
  static func status(_ termination: CommandRun.Termination) -> String {
    switch termination {
    case .exited(let code): "[exit \(code)]"
    case .signaled(let signal): "[signal \(signal)\(signalName(signal).map { " " + $0 } ?? "")]"
    case .timedOut: "[timed out]"
    }
  }

  /// The usual name of a signal, as this platform numbers it.
  static func signalName(_ signal: Int32) -> String? {
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
      SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
      SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1", SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2",
      SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
    ]
    return names[signal]
  }
}
