import Foundation
import RunRecord

/// Why `prune` will not act on a usage log.
package struct PruneRefusal: Error, CustomStringConvertible, Sendable {
  package var description: String
}

/// The references a test run used, checked to come from a complete run.
package struct CompleteUsageLog: Sendable {
  /// Every reference path an assertion read or wrote, standardized.
  package var usedPaths: Set<String>
  /// How many test processes wrote the log.
  package var processCount: Int
  /// The reference variants the run's assertions used; empty when none used one.
  package var variants: Set<String> = []

  /// The options of `swift test` (and of the test processes it starts) that run only part of
  /// the suite.
  static let filteringOptions = ["--filter", "--skip", "-s", "--specifier"]

  /// Loads the logs in `folders` and merges them, checking each as ``load(folder:)`` does: a
  /// reference is used when any run used it, and the run's variants are all of theirs.
  package static func load(folders: [URL]) throws(PruneRefusal) -> CompleteUsageLog {
    guard !folders.isEmpty else {
      throw PruneRefusal(description: "Refusing to prune: no usage log was given (--usage).")
    }
    var merged = CompleteUsageLog(usedPaths: [], processCount: 0)
    for folder in folders {
      let log = try load(folder: folder)
      merged.usedPaths.formUnion(log.usedPaths)
      merged.processCount += log.processCount
      merged.variants.formUnion(log.variants)
    }
    return merged
  }

  /// Loads the log in `folder` and checks that it can be trusted to name every used reference.
  ///
  /// Refuses a missing or empty log, and a log written by any test process that was given a test
  /// filter: the references of the tests it skipped would look unused.
  package static func load(folder: URL) throws(PruneRefusal) -> CompleteUsageLog {
    let howToLog = """
      Produce a full log by running the whole suite, without --filter, --skip or --parallel:

          rm -rf \(shellQuoted(folder.path))
          SNAPSHOT_TESTING_USED_REFERENCES=\(shellQuoted(folder.path)) swift test
      """
    let log: (paths: Set<String>, processes: [ReferenceUsageLog.ProcessInfoRecord])
    do {
      log = try ReferenceUsageLog.load(folder: folder)
    } catch {
      throw PruneRefusal(
        description: """
          Refusing to prune: the usage log "\(folder.path)" could not be read (\(SnapshotFileError.reason(of: error))).
          \(howToLog)
          """
      )
    }
    guard !log.processes.isEmpty || !log.paths.isEmpty else {
      throw PruneRefusal(
        description: """
          Refusing to prune: "\(folder.path)" holds no usage log, so every reference would look \
          unused.
          \(howToLog)
          """
      )
    }
    for process in log.processes {
      if let option = filteringOption(in: process.arguments) {
        throw PruneRefusal(
          description: """
            Refusing to prune: the usage log comes from a partial run. A test process was given \
            \(option == "a list of tests" ? option : "\"\(option)\"") \
            (\(abbreviated(process.arguments.dropFirst().joined(separator: " ")))), so the \
            references of the tests it did not run would look unused.
            \(howToLog)
            """
        )
      }
    }
    let variants: Set<String>
    do {
      variants = try ReferenceUsageLog.loadVariants(folder: folder)
    } catch {
      throw PruneRefusal(
        description: """
          Refusing to prune: the variants listed in the usage log "\(folder.path)" could not be \
          read (\(SnapshotFileError.reason(of: error))).
          \(howToLog)
          """
      )
    }
    return CompleteUsageLog(
      usedPaths: Set(log.paths.map(standardizedPath)),
      processCount: log.processes.count,
      variants: variants
    )
  }

  /// The first filtering option among a test process's arguments, as it was spelled.
  ///
  /// `swift test` hands its own arguments to the Swift Testing process (`--filter X
  /// --testing-library swift-testing`), and to the XCTest process a list of the selected tests as
  /// its first argument (`Module.Class/testA,Module.Class/testB`); a complete run gives XCTest no
  /// argument.
  static func filteringOption(in arguments: [String]) -> String? {
    for argument in arguments.dropFirst() {
      for option in filteringOptions where argument == option || argument.hasPrefix(option + "=") {
        return argument
      }
    }
    if arguments.count > 1, !arguments[1].hasPrefix("-") {
      return "a list of tests"
    }
    return nil
  }
}

/// `text`, cut to its first 120 characters.
func abbreviated(_ text: String) -> String {
  text.count <= 120 ? text : text.prefix(119) + "…"
}

/// A path with `.`, `..` and symbolic links resolved, so that two spellings of a file compare
/// equal.
func standardizedPath(_ path: String) -> String {
  URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
}
