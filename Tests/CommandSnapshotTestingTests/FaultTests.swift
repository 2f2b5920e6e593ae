import ChildProcesses
import Foundation
import TestSupport
import SnapshotTesting
import Testing

@testable import CommandSnapshotTesting

/// A command that cannot run, runs too long or prints too much fails the assertion, naming the
/// cause, and records nothing.
@Suite struct FaultTests {
  /// Verifies `command` in a fresh folder with the given record mode; the message and the files
  /// left in the folder.
  func verify(
    _ command: Command,
    as strategy: Snapshotting<Command, String> = .output,
    record: SnapshotTestingConfiguration.Record
  ) -> (message: String?, files: [String]) {
    withTemporaryFolder { folder in
      let message = verifySnapshot(
        of: command,
        as: strategy,
        record: record,
        snapshotDirectory: folder.path,
        testName: "fault"
      )
      return (message, files(under: folder))
    }
  }

  @Test(arguments: [SnapshotTestingConfiguration.Record.all, .missing])
  func aMissingProgramFailsNamingThePath(_ mode: SnapshotTestingConfiguration.Record) {
    let command = Command(executable: URL(fileURLWithPath: "/no/such/tool"))
    let (message, files) = verify(command, record: mode)
    #expect(message?.hasPrefix(#"No program at "/no/such/tool"."#) == true)
    #expect(message?.contains("nothing was recorded") == true)
    #expect(files == [])
  }

  @Test func aProductThatWasNotBuiltSaysHowToBuildIt() {
    let (message, _) = verify(Command(executable: productURL("not-a-product")), record: .all)
    #expect(message?.contains(productURL("not-a-product").path) == true)
    #expect(message?.contains("make the test target depend on it") == true)
  }

  @Test func aFileThatIsNotExecutableFails() throws {
    try withTemporaryFolder { folder in
      let script = folder.appendingPathComponent("script.sh")
      try Data("echo hi\n".utf8).write(to: script)
      let (message, files) = verify(Command(executable: script), record: .all)
      #expect(
        message?.hasPrefix(#"Cannot run "\#(script.path)": the file is not executable"#) == true
      )
      #expect(files == [])
    }
  }

  @Test func aFolderIsNotAProgram() {
    let (message, _) = verify(Command(executable: URL(fileURLWithPath: "/tmp")), record: .all)
    #expect(message?.hasPrefix(#"Cannot run "/tmp": it is a folder, not a program."#) == true)
  }

  /// Passed to the program, `a\0b` would arrive as `a` while the recorded command line shows
  /// all of it: refused, naming the argument.
  @Test func anArgumentHoldingANULByteIsRefused() {
    let command = Command(executable: shell, arguments: ["-c", "echo a\u{0}b"])
    let (message, files) = verify(command, record: .all)
    #expect(
      message?.hasPrefix(
        #"Cannot run "/bin/sh": argument 2, "echo a\0b", holds a NUL byte"#
      ) == true,
      "\(message ?? "")"
    )
    #expect(files == [])
  }

  @Test(arguments: ["A=B", "", "A\u{0}"])
  func anEnvironmentKeyThatIsNoVariableNameIsRefused(_ key: String) {
    let command = Command(executable: shell, arguments: ["-c", "true"], environment: [key: "1"])
    let (message, _) = verify(command, record: .all)
    let shown = key.replacingOccurrences(of: "\u{0}", with: "\\0")
    #expect(
      message?.hasPrefix(#"Cannot run "/bin/sh": the environment key "\#(shown)" is not"#) == true,
      "\(message ?? "")"
    )
  }

  @Test func anEnvironmentValueHoldingANULByteIsRefused() {
    let command = Command(executable: shell, arguments: ["-c", "true"], environment: ["A": "x\u{0}"])
    let (message, _) = verify(command, record: .all)
    #expect(message?.contains(#"the environment variable "A" holds a NUL byte"#) == true)
  }

  @Test(arguments: [0, -1, Double.nan, -Double.infinity])
  func aTimeoutThatIsNotPositiveIsRefusedNamingIt(_ timeout: Double) {
    let command = Command(executable: shell, arguments: ["-c", "true"], timeout: timeout)
    let (message, files) = verify(command, record: .all)
    #expect(
      message?.hasPrefix(#"Cannot run "/bin/sh": its `timeout` is \#(timeout); it must be"#) == true,
      "\(message ?? "")"
    )
    #expect(files == [])
  }

  @Test func aMissingWorkingDirectoryFails() {
    var command = fixtureCommand("pwd")
    command.workingDirectory = URL(fileURLWithPath: "/no/such/folder")
    let (message, _) = verify(command, record: .all)
    #expect(message?.contains(#"its working directory "/no/such/folder" is not a folder"#) == true)
  }

  @Test(arguments: [false, true])
  func aCommandPastItsTimeoutIsKilledWithItsChildren(_ terminal: Bool) throws {
    let command = fixtureCommand("spawn-child", timeout: 1)
    let started = Date()
    let (message, files) = verify(command, as: terminal ? .terminal : .output, record: .all)
    #expect(Date().timeIntervalSince(started) < 20)
    #expect(
      message?.hasPrefix(
        """
        The command `CommandFixture spawn-child` ran past its timeout of 1 second and was \
        killed with its child processes.
        """
      ) == true
    )
    #expect(files == [])
  }

  @Test func theTimeoutKillsTheChildProcessToo() throws {
    guard case .success(let run) = CommandRunner.run(fixtureCommand("spawn-child", timeout: 1))
    else {
      Issue.record("the fixture did not start")
      return
    }
    #expect(run.termination == .timedOut)
    let line = String(decoding: run.standardOutput, as: UTF8.self)
    let pid = try #require(Int32(line.dropFirst("child ".count).prefix { $0.isNumber }))
    // Killed, it is reparented and reaped; allow the reaper a moment.
    var gone = processIsGone(pid)
    for _ in 0..<50 where !gone {
      usleep(20_000)
      gone = processIsGone(pid)
    }
    #expect(gone, "the child \(pid) outlived the timeout")
  }

  @Test func aChildLeftRunningAfterTheProgramExitsIsEnded() throws {
    // The shell starts a sleeper in the background and exits at once: the run must not wait.
    let command = Command(
      executable: shell,
      arguments: ["-c", "sleep 30 & echo started"],
      timeout: 20
    )
    let started = Date()
    let (text, failure) = snapshotText(command, as: .output)
    #expect(failure == nil)
    #expect(text.hasSuffix("\nstarted\n[exit 0]"))
    #expect(Date().timeIntervalSince(started) < 10)
  }

  /// A daemon (a process that left the group with `setsid`) keeps the output open long after the
  /// program exited: the run ends with the program, and says so in a warning, not a timeout.
  @Test func aDaemonHoldingTheOutputOpenIsAWarningNotATimeout() throws {
    let marker = "29.\(Int.random(in: 100_000...999_999))"
    defer {
      _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-f", marker])
    }
    // The program exits only once the daemon is in a session of its own (it has written the
    // file), so that killing the program's group cannot catch it first.
    let ready = FileManager.default.temporaryDirectory
      .appendingPathComponent("daemon-ready-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: ready) }
    let command = Command(
      executable: shell,
      arguments: [
        "-c",
        """
        setsid sh -c 'echo up > "$0"; exec sleep \(marker)' "\(ready.path)" &
        while [ ! -s "\(ready.path)" ]; do sleep 0.01; done
        echo started
        """,
      ],
      timeout: 20
    )
    let started = Date()
    let ((text, failure), warnings) = SnapshotWarning.collecting {
      snapshotText(command, as: .output)
    }
    #expect(failure == nil)
    #expect(text.hasSuffix("\nstarted\n[exit 0]"))
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(warnings.count == 1)
    let warning = warnings.first ?? ""
    #expect(warning.contains("a process it started outside its process group (a daemon)"))
  }

  @Test func a100MegabyteOutputIsStreamedAndFailsNamingTheLimit() throws {
    let command = fixtureCommand("flood", "100")
    guard case .success(let run) = CommandRunner.run(command) else {
      Issue.record("the fixture did not start")
      return
    }
    // Read to the end, but only the limit kept.
    #expect(run.termination == .exited(0))
    #expect(run.standardOutput.count == Command.defaultOutputLimit)
    #expect(run.standardOutput.count + run.droppedOutputBytes == 100 * 1024 * 1024)

    var small = fixtureCommand("flood", "2")
    small.outputLimit = 1024 * 1024
    let (message, files) = verify(small, record: .all)
    #expect(
      message?.hasPrefix(
        """
        The command `CommandFixture flood 2` wrote 2097152 bytes to standard output, more than \
        its output limit of 1048576 bytes (`Command.outputLimit`).
        """
      ) == true
    )
    #expect(files == [])
  }

  @Test func outputUnderTheLimitIsKeptWhole() {
    guard case .success(let run) = CommandRunner.run(fixtureCommand("flood", "3")) else {
      Issue.record("the fixture did not start")
      return
    }
    #expect(run.standardOutput.count == 3 * 1024 * 1024)
    #expect(run.droppedOutputBytes == 0)
  }

  @Test func waitStatusesDecode() {
    #expect(ChildSpawn.termination(fromWaitStatus: 0) == .exited(0))
    #expect(ChildSpawn.termination(fromWaitStatus: 3 << 8) == .exited(3))
    #expect(ChildSpawn.termination(fromWaitStatus: 15) == .signaled(15))
    // A core dump sets bit 7; the signal is the low seven bits.
    #expect(ChildSpawn.termination(fromWaitStatus: 0x80 | 11) == .signaled(11))
  }
}
