import ArgumentParser
import SnapshotReview

struct ReviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "review",
    abstract: "List pending snapshot failures, and in a terminal, accept or reject each one.",
    discussion: """
      Shows each failure's test, reference and text diff (or, for images, the stored message and \
      the PNG files). When standard input is a terminal, asks for each: [a]ccept, [r]eject, \
      [s]kip, accept [A]ll remaining, [q]uit. Otherwise (CI, pipes) it only lists.

      Exits 0 when nothing is pending, 1 when failures remain, 4 when the filters match none.
      """
  )

  @OptionGroup var options: ArtifactsOptions

  @Flag(name: .long, help: "Only list, even in a terminal.")
  var list = false

  @Argument(
    help: ArgumentHelp(
      "Only failures whose test name or path contains one of these.",
      valueName: "filter"
    )
  )
  var filters: [String] = []

  func run() throws {
    let interactive = !list && StandardConsole.isInteractive
    let status = options.session().review(filters: filters, interactive: interactive)
    throw status.exitCode
  }
}
