import ChildProcesses
import Foundation
import RunRecord

/// Where `prune` learns every test the package has, to prove that a run split over processes or
/// shards ran them all.
package enum TestListSource: Sendable {
  /// A file holding what `swift test list` printed (a CI job's artifact).
  case file(URL)
  /// `swift build --build-tests`, then `swift test list --skip-build`, in the package's folder.
  case swiftTestList(packageRoot: URL)

  /// The names of the package's tests, as `swift test list` prints them.
  func load() throws(PruneRefusal) -> [String] {
    switch self {
    case .file(let url):
      let text: String
      do {
        text = try String(contentsOf: url, encoding: .utf8)
      } catch {
        throw PruneRefusal(
          description: """
            Refusing to prune: the test list "\(url.path)" could not be read \
            (\(error.localizedDescription)).
            """
        )
      }
      let tests = Self.testNames(in: text)
      guard !tests.isEmpty else {
        throw PruneRefusal(
          description: """
            Refusing to prune: the test list "\(url.path)" names no test. Write it with:

                swift build --build-tests && swift test list --skip-build > \(shellQuoted(url.path))
            """
        )
      }
      return tests
    case .swiftTestList(let packageRoot):
      do {
        _ = try Self.swift(["build", "--build-tests"], in: packageRoot)
        let tests = Self.testNames(in: try Self.swift(["test", "list", "--skip-build"], in: packageRoot))
        guard !tests.isEmpty else { throw PruneRefusal(description: "it listed no test") }
        return tests
      } catch {
        throw PruneRefusal(
          description: """
            Refusing to prune: the run was split (over --parallel workers, shards or filters), so \
            every test of the package must be listed to prove they all ran, and `swift test list` \
            failed in "\(packageRoot.path)": \(error). Give the list with --test-list FILE, written \
            in the same checkout by:

                swift build --build-tests && swift test list --skip-build > FILE
            """
        )
      }
    }
  }

  /// The lines of `swift test list`'s output that name tests: not blank, and not SwiftPM's
  /// progress (`[3/9] Compiling…`, `Building for debugging...`, `Build complete!`).
  static func testNames(in text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { line in
      !line.isEmpty && !line.hasPrefix("[") && !line.hasPrefix("Build")
        && !line.hasPrefix("warning:") && !line.hasPrefix("error:") && line.contains(".")
    }
  }

  /// Runs `swift ARGUMENTS` in `folder` with no usage log (the listing must not add to one),
  /// through the package's one process runner (its own process group, killed with the tool),
  /// returning its standard output; the end of its standard error names why it failed.
  private static func swift(_ arguments: [String], in folder: URL) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    environment["SNAPSHOT_TESTING_USED_REFERENCES"] = nil
    let command = "swift \(arguments.joined(separator: " "))"
    let request = ChildRequest(
      path: "/usr/bin/env", arguments: ["swift"] + arguments, environment: environment,
      workingDirectory: folder.path
    )
    let run: ChildRun
    switch ProcessGroupRunner.run(request) {
    case .success(let finished): run = finished
    case .failure(let failure):
      throw PruneRefusal(
        description: "\(command) could not start: \(SystemError(failure.code).text)"
      )
    }
    guard run.termination == .exited(0) else {
      let ending: String
      switch run.termination {
      case .exited(let status): ending = "exited with status \(status)"
      case .signaled(let signal): ending = "was killed by signal \(signal)"
      case .timedOut: ending = "timed out"
      }
      let errorLines = String(decoding: run.standardError, as: UTF8.self)
        .split(whereSeparator: \.isNewline).suffix(5).joined(separator: "\n")
      throw PruneRefusal(
        description: errorLines.isEmpty ? "\(command) \(ending)" : """
          \(command) \(ending):
          \(errorLines)
          """
      )
    }
    return String(decoding: run.standardOutput, as: UTF8.self)
  }
}
