import ArgumentParser
import Foundation
import SnapshotReview

struct PruneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "List (or delete) the snapshot files no test used in a full run.",
    discussion: """
      Needs a usage log from a run of every test:

        SNAPSHOT_TESTING_USED_REFERENCES=.snapshot-usage swift test
        swift run snapshot-testing prune --usage .snapshot-usage

      Only files inside __Snapshots__ folders beneath --root are considered; hidden files and \
      hidden folders (.build, .git) are left alone. A file of a reference variant the run did \
      not use (testBars.1.macos.png after a Linux run) is kept and listed as such: the run could \
      not have produced it.

      The run may be split: `swift test --parallel` (its workers log into one folder), or CI \
      shards run with --filter and --skip, one folder each, given by repeating --usage (a file is \
      used when any shard used it). Prune then proves that together they ran every test of the \
      package, against `swift test list` (run in --root, or read from --test-list), and refuses \
      naming the tests no process ran. It also refuses when a test process crashed, when the logs \
      come from different commits (or not the package's), and when two shards ran one test and \
      it used different references.

      Exits 0 when nothing is unused or all were deleted, 1 when unused files were listed \
      without --delete, 3 when refused, 5 when a file could not be deleted.
      """
  )

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The folder SNAPSHOT_TESTING_USED_REFERENCES named during the test run; repeat it to merge the logs of several runs (shards, platforms).",
      valueName: "dir"
    )
  )
  var usage: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The package's folder to search (default: the current folder).",
      valueName: "dir"
    )
  )
  var root: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "A file holding `swift test list`'s output for this checkout, for a split run (default: run it in --root when needed).",
      valueName: "file"
    )
  )
  var testList: String?

  @Flag(name: .long, help: "Delete the unused files instead of listing them.")
  var delete = false

  mutating func validate() throws {
    if usage.isEmpty {
      throw ValidationError("Missing expected argument '--usage <dir>'.")
    }
  }

  func run() throws {
    let packageRoot = URL(
      fileURLWithPath: root ?? FileManager.default.currentDirectoryPath,
      isDirectory: true
    )
    let hints = CommandHints(
      sharedOptions: root.map { ["--root", $0] } ?? [],
      packageRoot: packageRoot
    )
    let session = ReviewSession(
      artifactsRoot: packageRoot,
      hints: hints,
      console: StandardConsole()
    )
    let folders = usage.map { URL(fileURLWithPath: $0, isDirectory: true) }
    let list = testList.map { TestListSource.file(URL(fileURLWithPath: $0)) }
    throw session.prune(usageFolders: folders, testList: list, delete: delete).exitCode
  }
}
