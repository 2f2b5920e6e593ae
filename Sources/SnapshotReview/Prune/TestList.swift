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
  /// returning its standard output; its errors go to ours.
  private static func swift(_ arguments: [String], in folder: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift"] + arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["SNAPSHOT_TESTING_USED_REFERENCES"] = nil
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw PruneRefusal(
        description: "swift \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)"
      )
    }
    return String(decoding: data, as: UTF8.self)
  }
}
