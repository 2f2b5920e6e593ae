import ChildProcesses
import Foundation
import SnapshotTesting

extension Snapshotting where Value == Command, Format == String {
  /// Runs the command and snapshots what it printed and how it ended, in a `.txt` reference.
  ///
  /// ```swift
  /// let greet = Command(executable: productURL("mytool"), arguments: ["greet", "--name", "Blob"])
  /// assertSnapshot(of: greet, as: .output)
  /// ```
  ///
  /// records the command line (arguments quoted as a shell needs them), standard output,
  /// standard error under an `[stderr]` heading when there is any, and the exit status:
  ///
  /// ```
  /// $ mytool greet --name Blob
  /// Hello, Blob!
  /// [exit 0]
  /// ```
  ///
  /// A program ended by a signal is recorded as `[signal 15 SIGTERM]`. Escape sequences (colours,
  /// cursor movement) are removed. The assertion fails, recording nothing, when the program
  /// cannot be started, runs past its ``Command/timeout`` (it is killed with its children), or
  /// writes more than its ``Command/outputLimit`` to either stream. Volatile text can be
  /// scrubbed: `.output.scrubbing(.uuids)`.
  ///
  /// - Complexity: O(*n*) in the output; memory at most twice ``Command/outputLimit`` plus the
  ///   text.
  public static var output: Snapshotting {
    SimplySnapshotting<String>.lines.asyncPullback { (command: Command) in
      CommandSnapshot.running(command) { OutputText.render(command, $0) }
    }
  }

  /// Runs the command as a colour terminal would, and snapshots its output as an SVG image of an
  /// 80-column terminal, in a `.svg` reference.
  ///
  /// ```swift
  /// assertSnapshot(of: greet, as: .terminal)
  /// ```
  ///
  /// The program runs with `TERM=xterm-256color`, `COLUMNS=80`, `CLICOLOR_FORCE=1` and
  /// `FORCE_COLOR=1`, and without `NO_COLOR`; its standard output is a pipe, not a terminal, so
  /// a program that colours only a terminal (`isatty`) must honour one of those variables. The
  /// image shows what an 80 × 24 terminal would show, with every row that scrolled off the top
  /// kept above it: carriage returns, cursor moves, erases and saved cursors are applied (a
  /// progress bar shows its last state), wide characters take two cells, and SGR styles (16,
  /// 256 and 24-bit colours, bold, italic, underline, inverse) are drawn with a fixed palette
  /// and font; other escape sequences, and malformed ones, are dropped. The image starts with
  /// the command line and ends with the exit status; standard error follows standard output
  /// (the two are read apart). The same output always gives the same bytes, so the reference is
  /// compared as text and viewed as an image.
  ///
  /// - Complexity: O(*n*) in the output.
  public static var terminal: Snapshotting {
    Snapshotting<String, String>(pathExtension: "svg", diffing: .lines)
      .asyncPullback { (command: Command) in
        var colourTerminal = command
        colourTerminal.environment["NO_COLOR"] = nil
        colourTerminal.environment["TERM"] = "xterm-256color"
        colourTerminal.environment["COLUMNS"] = "80"
        // Output goes to a pipe: the conventional variables ask programs that check `isatty`
        // to colour it anyway.
        colourTerminal.environment["CLICOLOR_FORCE"] = "1"
        colourTerminal.environment["FORCE_COLOR"] = "1"
        return CommandSnapshot.running(colourTerminal) { run in
          var svg = TerminalSVG()
          svg.addAnnotation("$ \(command.commandLine)")
          svg.addOutput([UInt8](run.standardOutput))
          svg.addOutput([UInt8](run.standardError))
          svg.addAnnotation(OutputText.status(run.termination))
          return svg.document()
        }
      }
  }
}

/// Runs a command for a strategy, and turns what cannot be snapshotted into the reason the
/// assertion fails.
enum CommandSnapshot {
  /// The rendered run, produced on the runner's own thread: the assertion waits for it (its
  /// timeout stretched to the command's own), and the `async` assertion suspends meanwhile.
  static func running(
    _ command: Command,
    render: @escaping @Sendable (CommandRun) -> String
  ) -> Async<String> {
    Async { callback in
      if command.timeout.isFinite, command.timeout > 0 {
        SnapshotWait.current?.allow(
          atLeast: command.timeout + ProcessGroupRunner.outputGrace + 5
        )
      }
      // Taken on the assertion's task, so that what the run reports from its thread reaches it.
      let reports = StrategyReportScope.current
      let deliver = UncheckedCallback(callback)
      CommandRunner.start(command) { result in
        deliver.callback(reports.bind { finish(command, result, render: render) })
      }
    }
  }

  private static func finish(
    _ command: Command,
    _ result: Result<CommandRun, CommandError>,
    render: (CommandRun) -> String
  ) -> String {
    let run: CommandRun
    switch result {
    case .failure(let error):
      return UnavailableSnapshot.report(error.description)
    case .success(let finished):
      run = finished
    }
    if run.termination == .timedOut {
      return UnavailableSnapshot.report(
        """
        The command `\(command.commandLine)` ran past its timeout of \
        \(seconds(command.timeout)) and was killed with its child processes.
        """
      )
    }
    for (stream, dropped, kept) in [
      ("standard output", run.droppedOutputBytes, run.standardOutput.count),
      ("standard error", run.droppedErrorBytes, run.standardError.count),
    ] where dropped > 0 {
      return UnavailableSnapshot.report(
        """
        The command `\(command.commandLine)` wrote \(kept + dropped) bytes to \(stream), more \
        than its output limit of \(command.outputLimit) bytes (`Command.outputLimit`).
        """
      )
    }
    if run.outputHeldOpen {
      SnapshotWarning.report(
        """
        The command `\(command.commandLine)` exited, but a process it started outside its \
        process group (a daemon) still held its output open; what that process wrote after the \
        command exited is not in the snapshot, and it was left running.
        """
      )
    }
    return render(run)
  }

  /// The engine's callback, called once from the runner's thread.
  private struct UncheckedCallback: @unchecked Sendable {
    let callback: (String) -> Void
    init(_ callback: @escaping (String) -> Void) { self.callback = callback }
  }

  private static func seconds(_ value: TimeInterval) -> String {
    let text = value == value.rounded() ? String(Int(value)) : String(value)
    return value == 1 ? "1 second" : "\(text) seconds"
  }
}
