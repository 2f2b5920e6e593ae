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
    var shared: [String] = []
    for folder in artifacts { shared += ["--artifacts", folder] }
    if let root { shared += ["--root", root] }
    return CommandHints(sharedOptions: shared, packageRoot: packageRoot)
  }

  func session() -> ReviewSession {
    ReviewSession(artifactsRoots: artifactsRoots, hints: hints, console: StandardConsole())
  }
}
