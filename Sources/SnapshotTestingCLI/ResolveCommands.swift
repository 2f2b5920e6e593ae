import ArgumentParser
import SnapshotReview

/// Which failures a command acts on: those whose test name, snapshot name, reference path or test
/// file path contains one of the filters; every one when there are none.
struct FailureFilters: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Only failures whose test name, snapshot name, reference path or test file path contains one of these; <test file>:<line>, as a failure prints it, selects the snapshots asserted on that line.",
      valueName: "filter"
    )
  )
  var filters: [String] = []
}

/// The selection shared by `accept` and `reject`: filters or `--all`, never neither.
struct FailureSelection: ParsableArguments {
  @Flag(name: .long, help: "Every pending failure.")
  var all = false

  @OptionGroup var matching: FailureFilters

  var filters: [String] { matching.filters }

  mutating func validate() throws {
    if all && !filters.isEmpty {
      throw ValidationError("Pass either --all or filters, not both.")
    }
    if !all && filters.isEmpty {
      throw ValidationError(
        "Name the failures (part of a test name or a reference path), or pass --all."
      )
    }
  }
}

struct AcceptCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accept",
    abstract: "Make the new snapshots the references.",
    discussion: """
      Each selected failed snapshot replaces its reference atomically (written to a temporary \
      file, then renamed over it); its artifacts and record are then removed.

      Exits 0 when all were accepted, 4 when the filters match none, 5 when one could not be \
      written.
      """
  )

  @OptionGroup var options: ArtifactsOptions
  @OptionGroup var selection: FailureSelection

  func run() throws {
    throw options.session().resolve(.accept, filters: selection.filters).exitCode
  }
}

struct RejectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reject",
    abstract: "Discard the new snapshots and keep the references.",
    discussion: """
      Removes each selected failure's artifacts and record; references are not touched.

      Exits 0 when all were rejected, 4 when the filters match none.
      """
  )

  @OptionGroup var options: ArtifactsOptions
  @OptionGroup var selection: FailureSelection

  func run() throws {
    throw options.session().resolve(.reject, filters: selection.filters).exitCode
  }
}
