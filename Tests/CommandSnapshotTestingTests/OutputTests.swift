import Foundation
import RunRecord
import TestSupport
import SnapshotTesting
import Testing

@testable import CommandSnapshotTesting

/// `.output` of real programs: the fixture executable and `/bin/sh`.
@Suite struct OutputTests {
  @Test func theCommandLineThenStandardOutputThenTheExitStatus() {
    let (text, failure) = snapshotText(fixtureCommand("greet", "--name", "Blob"), as: .output)
    #expect(failure == nil)
    #expect(text == "$ CommandFixture greet --name Blob\nHello, Blob!\n[exit 0]")
  }

  @Test func standardErrorHasItsOwnHeading() {
    let (text, _) = snapshotText(fixtureCommand("report"), as: .output)
    #expect(
      text == """
        $ CommandFixture report
        checked 3 files
        [stderr]
        error: missing file 'b.txt'
        [exit 3]
        """
    )
  }

  @Test func standardInputIsFedToTheProgram() {
    let (text, _) = snapshotText(fixtureCommand("stdin").withStandardInput("yes\n"), as: .output)
    #expect(text == "$ CommandFixture stdin\nread: YES\n[exit 0]")
  }

  @Test func withoutStandardInputTheProgramReadsEndOfFileAtOnce() {
    let (text, _) = snapshotText(fixtureCommand("stdin", timeout: 10), as: .output)
    #expect(text == "$ CommandFixture stdin\nread: \n[no newline at end]\n[exit 0]")
  }

  @Test func theEnvironmentAndWorkingDirectoryAreTheCommandsOwn() {
    withTemporaryFolder { folder in
      var command = fixtureCommand("env", "GREETING")
      command.environment = ["GREETING": "hi there"]
      #expect(snapshotText(command, as: .output).text.contains("\nGREETING=hi there\n"))

      var inFolder = fixtureCommand("pwd")
      inFolder.workingDirectory = folder
      let text = snapshotText(inFolder, as: .output).text
      #expect(text.contains("\n\(folder.resolvingSymlinksInPath().path)\n"))
    }
  }

  @Test func byDefaultTheEnvironmentIsTheTestProcesss() {
    let text = snapshotText(fixtureCommand("env", "PATH"), as: .output).text
    #expect(text.contains("PATH=\(ProcessInfo.processInfo.environment["PATH"] ?? "(unset)")\n"))
  }

  @Test(arguments: [0, 1, 7, 255])
  func exitCodesOfTheShell(_ code: Int) {
    let command = Command(executable: shell, arguments: ["-c", "exit \(code)"])
    #expect(snapshotText(command, as: .output).text == "$ sh -c 'exit \(code)'\n[exit \(code)]")
  }

  @Test func aProgramKilledByASignalIsRecordedAsSuch() {
    let command = Command(executable: shell, arguments: ["-c", "echo before; kill -TERM $$"])
    let (text, failure) = snapshotText(command, as: .output)
    #expect(failure == nil)
    #expect(text == "$ sh -c 'echo before; kill -TERM $$'\nbefore\n[signal 15 SIGTERM]")
    let killed = Command(executable: shell, arguments: ["-c", "kill -KILL $$"])
    #expect(snapshotText(killed, as: .output).text.hasSuffix("\n[signal 9 SIGKILL]"))
  }

  @Test func escapeSequencesAreStripped() {
    let (text, _) = snapshotText(fixtureCommand("colors"), as: .output)
    #expect(
      text == """
        $ CommandFixture colors
        bold italic under
        red bright green inverse
        orange pink on grey
        <a & b>
        [exit 0]
        """
    )
    #expect(!text.contains("\u{1B}"))
  }

  @Test func malformedAndNonSGRSequencesAreStrippedToo() {
    let (text, _) = snapshotText(fixtureCommand("escapes"), as: .output)
    #expect(
      text == """
        $ CommandFixture escapes
        onetwothreefourfive
        sixeveneightnine
        [no newline at end]
        [exit 0]
        """
    )
  }

  /// The first line of every `.output` reference: the program's file name and its arguments,
  /// quoted by the package's one shell quoting, byte for byte.
  @Test func theCommandLineQuotesOnlyWhatNeedsIt() {
    let command = Command(
      executable: URL(fileURLWithPath: "/usr/bin/my tool"),
      arguments: ["--name=Blob", "two words", "it's", "", "é"]
    )
    #expect(command.commandLine == #"'my tool' --name=Blob 'two words' 'it'\''s' '' 'é'"#)
  }

  /// A parameter after an intermediate (`-`) makes a sequence malformed; it is dropped up to its
  /// final byte, however long, never cut where the scanner first stumbled.
  @Test(arguments: [
    "\u{1B}[38;2;300;-1;0m", "\u{1B}[1-2-3-4m", "\u{1B}[" + String(repeating: "1;", count: 5000) + "-9m",
  ])
  func aMalformedOrOverLongSequenceIsDroppedWhole(_ sequence: String) {
    let command = Command(executable: shell, arguments: ["-c", #"printf '%s\n' "$0""#, "a\(sequence)b"])
    let (text, failure) = snapshotText(command, as: .output)
    #expect(failure == nil)
    #expect(text.hasSuffix("\nab\n[exit 0]"), "\(text.suffix(40))")
  }

  @Test func argumentsWithSpacesQuotesAndNewlinesAreQuotedForTheShell() throws {
    let awkward = ["two words", "it's", "say \"hi\"", "line\nbreak", "", "$HOME", "plain-1.0"]
    let command = Command(executable: fixture, arguments: ["args"] + awkward)
    let (text, _) = snapshotText(command, as: .output)
    #expect(
      text == """
        $ CommandFixture args 'two words' 'it'\\''s' 'say "hi"' 'line
        break' '' '$HOME' plain-1.0
        [two words]
        [it's]
        [say "hi"]
        [line
        break]
        []
        [$HOME]
        [plain-1.0]
        [exit 0]
        """
    )

    // The quoted line, given to /bin/sh, passes the same words.
    let quoted = awkward.map(shellQuoted).joined(separator: " ")
    let echo = Command(executable: shell, arguments: ["-c", "printf '[%s]\\n' \(quoted)"])
    let echoed = snapshotText(echo, as: .output).text
    #expect(echoed.contains("\n" + awkward.map { "[\($0)]" }.joined(separator: "\n") + "\n"))
  }

  @Test func scrubbersApplyToTheOutput() {
    let command = Command(
      executable: shell,
      arguments: ["-c", "echo 8F2A1C3E-3D4B-4F5A-9B6C-7D8E9F0A1B2C"]
    )
    let (text, _) = snapshotText(command, as: .output.scrubbing(.uuids))
    #expect(text.contains("\nUUID_1\n"))
  }

  @Test func greetOutput() {
    assertSnapshot(of: fixtureCommand("greet", "--name", "Blob"), as: .output)
  }

  @Test func reportOutput() {
    assertSnapshot(of: fixtureCommand("report"), as: .output)
  }
}
