import ArgumentParser
import Foundation
import SnapshotReview

struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write one self-contained HTML page of the pending failures.",
    discussion: """
      Text diffs are coloured; image failures show reference, new image and difference side by \
      side, with swipe and onion-skin views. Everything is inside the one file (no network), so \
      it can be kept as a CI artifact.

      Exits 0 when the report was written (even if failures are pending), 4 when the filters \
      match none, 5 when it could not be written.
      """
  )

  @OptionGroup var options: ArtifactsOptions

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp(
      "Where to write the page (default: snapshot-report.html in the artifacts folder).",
      valueName: "file"
    )
  )
  var output: String?

  @OptionGroup var selection: FailureFilters

  func run() throws {
    let destination =
      output.map { URL(fileURLWithPath: $0) }
      ?? options.artifactsRoot.appendingPathComponent("snapshot-report.html")
    throw options.session().report(to: destination, filters: selection.filters).exitCode
  }
}
