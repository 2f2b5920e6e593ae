import ArgumentParser
import Foundation
import SnapshotReview
import RunRecord

/// Where the failures are and where the package is, shared by the commands that read failures.
struct ArtifactsOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The artifacts folder the tests wrote to (default: $SNAPSHOT_ARTIFACTS, else the system's temporary folder).",
      valueName: "dir"
    )
  )
  var artifacts: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The package's folder, against which downloaded CI artifacts are matched and paths are shown (default: the current folder).",
      valueName: "dir"
    )
  )
  var root: String?

  var artifactsRoot: URL {
    if let artifacts { return URL(fileURLWithPath: artifacts, isDirectory: true) }
    return ArtifactsFolder(RunEnvironment.current).root
  }

  var packageRoot: URL {
    URL(fileURLWithPath: root ?? FileManager.default.currentDirectoryPath, isDirectory: true)
  }

  var hints: CommandHints {
    var shared: [String] = []
    if let artifacts { shared += ["--artifacts", artifacts] }
    if let root { shared += ["--root", root] }
    return CommandHints(sharedOptions: shared, packageRoot: packageRoot)
  }

  func session() -> ReviewSession {
    ReviewSession(artifactsRoot: artifactsRoot, hints: hints, console: StandardConsole())
  }
}
