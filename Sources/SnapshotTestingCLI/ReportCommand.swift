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

      With --serve, the report is served on 127.0.0.1 instead (never on another address), with \
      Accept and Reject buttons on each failure and Accept all shown; they do what the accept \
      and reject commands do. Every request that changes a file must carry a random token the \
      server puts in the page, new each time it starts, and requests whose Host or Origin is \
      not this server are refused with 403, so another site open in the browser cannot accept \
      snapshots. Only files inside the artifacts folders and the package are served. The page \
      reloads its list when the artifacts change (a new test run). Ctrl-C stops the server; it \
      leaves no file behind.

      Exits 0 when the report was written (even if failures are pending) or the server was \
      stopped, 4 when the filters match none, 5 when it could not be written, 6 when --serve \
      could not listen (the port is in use).
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

  @Flag(name: .long, help: "Serve the report on 127.0.0.1 with Accept and Reject buttons.")
  var serve = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The port to serve on, with --serve (default: 0, any free port; the address is printed).",
      valueName: "n"
    )
  )
  var port: UInt16?

  @OptionGroup var selection: FailureFilters

  mutating func validate() throws {
    if port != nil && !serve {
      throw ValidationError("--port is only for --serve.")
    }
    if serve && output != nil {
      throw ValidationError("Pass either --serve or --output, not both.")
    }
  }

  func run() throws {
    if serve {
      throw options.session().serve(port: port ?? 0, filters: selection.filters).exitCode
    }
    let destination =
      output.map { URL(fileURLWithPath: $0) }
      ?? options.artifactsRoot.appendingPathComponent("snapshot-report.html")
    throw options.session().report(to: destination, filters: selection.filters).exitCode
  }
}
