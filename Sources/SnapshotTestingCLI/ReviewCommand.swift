import ArgumentParser
import SnapshotReview

struct ReviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "review",
    abstract: "List pending snapshot failures, and in a terminal, accept or reject each one.",
    discussion: """
      Shows each failure's test, reference and text diff (or, for images, the comparison's \
      counts and the PNG files). When standard input is a terminal, asks for each: [a]ccept, [r]eject, \
      [s]kip, accept [A]ll remaining, [q]uit. Otherwise (CI, pipes) it only lists.

      Exits 0 when nothing is pending, 1 when failures remain, 4 when the filters match none.
      """
  )

  @OptionGroup var options: ArtifactsOptions

  @Flag(name: .long, help: "Only list, even in a terminal.")
  var list = false

  @OptionGroup var selection: FailureFilters

  func run() throws {
    let interactive = !list && StandardConsole.isInteractive
    let status = options.session().review(filters: selection.filters, interactive: interactive)
    throw status.exitCode
  }
}
