import ArgumentParser
import Foundation
import SnapshotReview

struct PruneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "List (or delete) the snapshot files no test used in a full run.",
    discussion: """
      Needs a usage log from a run of the whole suite:

        SNAPSHOT_TESTING_USED_REFERENCES=.snapshot-usage swift test
        swift run snapshot-testing prune --usage .snapshot-usage

      Only files inside __Snapshots__ folders beneath --root are considered; hidden files and \
      hidden folders (.build, .git) are left alone. Refuses a log from a filtered run (--filter, \
      --skip, a test list) or from another checkout. A file of a reference variant the run did \
      not use (testBars.1.macos.png after a Linux run) is kept and listed as such: the run could \
      not have produced it.

      Repeat --usage to merge the logs of several complete runs (the shards of a CI job, the runs \
      on each platform): a file is used when any of them used it. Each log must come from an \
      unfiltered run; shards made with --filter are refused, since nothing shows that together \
      they ran every test.

      Exits 0 when nothing is unused or all were deleted, 1 when unused files were listed \
      without --delete, 3 when refused, 5 when a file could not be deleted.
      """
  )

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The folder SNAPSHOT_TESTING_USED_REFERENCES named during a full test run; repeat it to merge the logs of several runs (shards, platforms).",
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
    throw session.prune(usageFolders: folders, delete: delete).exitCode
  }
}
