import ArgumentParser
import Foundation
import SnapshotReview
import RunRecord

/// Where the failures are and where the package is, shared by the commands that read failures.
struct ArtifactsOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The artifacts folder the tests wrote to (default: $SNAPSHOT_ARTIFACTS, else the system's temporary folder); repeat it to read the artifacts of several runs (shards).",
      valueName: "dir"
    )
  )
  var artifacts: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The package's folder, against which downloaded CI artifacts are matched and paths are shown (default: the current folder).",
      valueName: "dir"
    )
  )
  var root: String?

  @Flag(
    name: .long,
    help: ArgumentHelp(
      "Also see the failures of other packages and checkouts that share the artifacts folder (by default only those whose reference or test file lies in this package are listed, accepted, rejected or reported); accept still writes only into this package."
    )
  )
  var allPackages = false

  /// The folders given, or the default one.
  var artifactsRoots: [URL] {
    guard !artifacts.isEmpty else { return [ArtifactsFolder(RunEnvironment.current).root] }
    return artifacts.map { URL(fileURLWithPath: $0, isDirectory: true) }
  }

  /// The first artifacts folder: where a report goes.
  var artifactsRoot: URL { artifactsRoots[0] }

  var packageRoot: URL {
    URL(fileURLWithPath: root ?? FileManager.default.currentDirectoryPath, isDirectory: true)
  }

  var hints: CommandHints {
    CommandHints.forOptions(
      artifacts: artifacts, root: root, allPackages: allPackages, packageRoot: packageRoot,
      environment: .current)
  }

  func session() -> ReviewSession {
    var session = ReviewSession(
      artifactsRoots: artifactsRoots, hints: hints, console: StandardConsole())
    session.includesOtherPackages = allPackages
    session.hasTerminal = StandardConsole.isInteractive
    return session
  }
}
