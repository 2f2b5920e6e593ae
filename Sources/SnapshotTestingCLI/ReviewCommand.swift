import ArgumentParser
import SnapshotReview

struct ReviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "review",
    abstract: "List pending snapshot failures, and in a terminal, accept or reject each one.",
    discussion: """
      Shows each failure's test, reference and text diff (or, for images, the comparison's \
      counts and the PNG files). When standard input is a terminal, asks for each: [a]ccept, [r]eject, \
      [s]kip, accept [A]ll remaining, [q]uit. Otherwise (CI, pipes) it only lists, and suggests \
      the commands that resolve one failure. Every diff is cut as the failure message cuts it \
      (500 lines of 2,000 bytes); a last line names the file that holds the whole.

      Only the failures of the package in --root (the current folder) are seen; the artifacts \
      folder may hold other packages' too, which --all-packages shows.

      --json prints the failures as a versioned JSON document (see \
      Documentation/review.schema.json); --format github prints GitHub Actions workflow \
      commands that annotate the pull request's diff. Both only list, and print nothing else on \
      standard output.

      Exits 0 when nothing is pending, 1 when failures remain, 4 when the filters match none.
      """
  )

  /// `--format`'s values.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json, github
  }

  @OptionGroup var options: ArtifactsOptions

  @Flag(name: .long, help: "Only list, even in a terminal.")
  var list = false

  @Flag(name: .long, help: "Print the failures as JSON (the same as --format json).")
  var json = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "How to print: text (default), json, or github (workflow commands for GitHub Actions).",
      valueName: "format"
    )
  )
  var format: Format?

  @OptionGroup var selection: FailureFilters

  mutating func validate() throws {
    if json, let format, format != .json {
      throw ValidationError("Pass either --json or --format \(format.rawValue), not both.")
    }
  }

  func run() throws {
    let session = options.session()
    let status: ToolExitCode
    switch json ? .json : (format ?? .text) {
    case .text:
      var session = session
      session.colors = TerminalColors.enabledForStandardOutput
      let interactive = !list && StandardConsole.isInteractive
      status = session.review(filters: selection.filters, interactive: interactive)
    case .json:
      status = session.review(filters: selection.filters, format: .json)
    case .github:
      status = session.review(filters: selection.filters, format: .github)
    }
    throw status.exitCode
  }
}
