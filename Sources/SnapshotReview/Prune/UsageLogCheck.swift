import Foundation
import RunRecord

/// Why `prune` will not act on a usage log.
package struct PruneRefusal: Error, CustomStringConvertible, Sendable {
  package var description: String
}

/// The references a test run used, checked to come from a run that ran every test to its end.
///
/// The run may be one `swift test`, the worker processes of `swift test --parallel`, or CI
/// shards that each ran part of the suite (one usage folder each). What is checked, in order:
/// each folder holds a log; all logs come from one commit, the package's; every test process
/// finished; together the processes ran every test of the package (when any ran only some, against
/// the full list from `swift test list`); and no two folders disagree about the references a test
/// they both ran used.
package struct CompleteUsageLog: Sendable {
  /// Every reference path an assertion read or wrote, standardized.
  package var usedPaths: Set<String>
  /// How many test processes wrote the log.
  package var processCount: Int
  /// The reference variants the run's assertions used; empty when none used one.
  package var variants: Set<String> = []

  /// One usage folder, read.
  struct Folder {
    var url: URL
    var usedPaths: Set<String>
    var processes: [(process: ReferenceUsageLog.LoggedProcess, selection: TestSelection)]
    var variants: Set<String>
  }

  /// Loads the logs in `folders` and merges them: a reference is used when any run used it, and
  /// the run's variants are all of theirs. `packageRoot` is where the references are; `testList`
  /// gives the package's tests when the run was split.
  package static func load(
    folders: [URL],
    packageRoot: URL,
    testList: TestListSource,
    note: (String) -> Void = { _ in }
  ) throws(PruneRefusal) -> CompleteUsageLog {
    guard !folders.isEmpty else {
      throw PruneRefusal(description: "Refusing to prune: no usage log was given (--usage).")
    }
    let logs = try folders.map { url throws(PruneRefusal) in try load(folder: url) }
    try checkRevisions(logs, packageRoot: packageRoot)
    try checkFinished(logs)
    try checkCoverage(logs, testList: testList, note: note)
    try checkAgreement(logs)
    var merged = CompleteUsageLog(usedPaths: [], processCount: 0)
    for log in logs {
      merged.usedPaths.formUnion(log.usedPaths)
      merged.processCount += log.processes.count
      merged.variants.formUnion(log.variants)
    }
    return merged
  }

  /// How to write a log prune accepts. It never suggests deleting anything: the folder is one
  /// the user named to read, and may be a file or hold something else.
  static func howToLog(_ folder: URL) -> String {
    let isFile = SystemCalls.isFolder(folder.path) == false
    let target = isFile ? "NEW_FOLDER" : shellQuoted(folder.path)
    let note =
      isFile
      ? "\"\(folder.path)\" is a file, not a folder: name a new folder for the log. "
      : ""
    return """
      \(note)Produce a full log by running every test (`swift test`, or `swift test --parallel`) \
      with the variable naming a new or empty folder (logs already in it are read too):

          SNAPSHOT_TESTING_USED_REFERENCES=\(target) swift test
      """
  }

  /// Reads the log in `folder`: refuses a missing folder, an unreadable log, and a folder that
  /// holds none.
  static func load(folder: URL) throws(PruneRefusal) -> Folder {
    guard SystemCalls.isFolder(folder.path) == true else {
      throw PruneRefusal(
        description: """
          Refusing to prune: the usage folder "\(folder.path)" does not exist. (A CI shard's \
          artifact that was not downloaded, or a run without SNAPSHOT_TESTING_USED_REFERENCES?)
          \(howToLog(folder))
          """
      )
    }
    let contents: ReferenceUsageLog.Contents
    let variants: Set<String>
    do {
      contents = try ReferenceUsageLog.load(folder: folder)
      variants = try ReferenceUsageLog.loadVariants(folder: folder)
    } catch {
      throw PruneRefusal(
        description: """
          Refusing to prune: the usage log "\(folder.path)" could not be read \
          (\(SnapshotFileError.reason(of: error))).
          \(howToLog(folder))
          """
      )
    }
    let processes = contents.processes.map { ($0, TestSelection(arguments: $0.arguments)) }
      .filter { $0.1 != .listing }
    guard !processes.isEmpty else {
      throw PruneRefusal(
        description: """
          Refusing to prune: "\(folder.path)" holds no usage log\(contents.paths.isEmpty ? "" : " that describes the test processes which wrote it"), \
          so every reference would look unused.
          \(howToLog(folder))
          """
      )
    }
    return Folder(
      url: folder,
      usedPaths: Set(contents.paths.map(standardizedPath)),
      processes: processes,
      variants: variants
    )
  }

  /// Refuses logs of different commits, or of a commit other than the package's: their tests
  /// and references are not the package's now.
  static func checkRevisions(_ logs: [Folder], packageRoot: URL) throws(PruneRefusal) {
    var folders: [String: [String]] = [:]
    for log in logs {
      for (process, _) in log.processes {
        guard let revision = process.record.revision else { continue }
        if !(folders[revision]?.contains(log.url.path) ?? false) {
          folders[revision, default: []].append(log.url.path)
        }
      }
    }
    if folders.count > 1 {
      let lines = folders.sorted { $0.key < $1.key }.map { revision, paths in
        "  \(revision) in " + paths.map { "\"\($0)\"" }.joined(separator: ", ")
      }
      throw PruneRefusal(
        description: """
          Refusing to prune: the usage logs come from different commits of the package, whose \
          tests and references differ:
          \(lines.joined(separator: "\n"))
          Run every shard on the same commit.
          """
      )
    }
    if let (revision, paths) = folders.first,
      let current = GitRevision.current(at: packageRoot), current != revision
    {
      throw PruneRefusal(
        description: """
          Refusing to prune: the usage log\(paths.count == 1 ? "" : "s") \
          \(paths.map { "\"\($0)\"" }.joined(separator: ", ")) come\(paths.count == 1 ? "s" : "") \
          from commit \(revision), but "\(packageRoot.path)" is at commit \(current): tests or \
          references may have changed since. Run the tests again on this commit.
          """
      )
    }
  }

  /// Refuses when a test process did not exit normally: the tests it had not finished may not
  /// have used their references yet.
  static func checkFinished(_ logs: [Folder]) throws(PruneRefusal) {
    let unfinished = logs.flatMap { log in
      log.processes.filter { !$0.process.finished }.map { (log.url, $0.selection) }
    }
    guard !unfinished.isEmpty else { return }
    let lines = unfinished.map { folder, selection in
      "  \(abbreviated(selection.summary)) (in \"\(folder.path)\")"
    }
    throw PruneRefusal(
      description: """
        Refusing to prune: \(count(unfinished.count, "test process", "test processes")) of the run \
        did not finish (crashed or killed), so the references of the tests \
        \(unfinished.count == 1 ? "it was" : "they were") running would look unused. Unfinished:
        \(lines.joined(separator: "\n"))
        Fix the crash and run the tests again.
        """
    )
  }

  /// Refuses unless the processes together ran every test. When every process ran its framework's
  /// whole suite (a plain `swift test`) and both frameworks ran, no list is needed; otherwise the
  /// package's tests are listed and each must have run in some process.
  static func checkCoverage(
    _ logs: [Folder],
    testList: TestListSource,
    note: (String) -> Void = { _ in }
  ) throws(PruneRefusal) {
    let selections = logs.flatMap { $0.processes.map(\.selection) }
    let wholeXCTest = selections.contains(.allXCTest)
    let wholeSwiftTesting = selections.contains { $0.isWholeSuite && $0 != .allXCTest }
    if wholeXCTest && wholeSwiftTesting { return }
    if case .swiftTestList = testList {
      note(
        "The run was split; listing the package's tests to check that every one ran "
          + "(swift build --build-tests, swift test list)…\n"
      )
    }
    let tests = try testList.load()
    let missing = tests.filter { test in !selections.contains { $0.ran(test) } }
    guard !missing.isEmpty else { return }
    let shown = missing.prefix(20).map { "  " + $0 }
    let more = missing.count > shown.count ? ["  … and \(missing.count - shown.count) more"] : []
    throw PruneRefusal(
      description: """
        Refusing to prune: no test process of the run\(logs.count > 1 ? "s (\(logs.count) usage folders)" : "") \
        ran \(missing.count) of the package's \(count(tests.count, "test")), so their references \
        would look unused:
        \((shown + more).joined(separator: "\n"))
        Run them in some shard (check the shards' --filter and --skip), or run every test.
        """
    )
  }

  /// Refuses when two folders both ran a test and it used different references in each (with the
  /// same reference variants): the same test asserted differently, and one of the runs is not
  /// what the other says the suite is.
  ///
  /// A test is known by its references: the `__Snapshots__` folder of its file and the test's
  /// name, the first part of each file name.
  static func checkAgreement(_ logs: [Folder]) throws(PruneRefusal) {
    var seen: [String: (folder: URL, variants: Set<String>, files: Set<String>)] = [:]
    for log in logs {
      for (owner, files) in referencesByTest(log.usedPaths) {
        guard let earlier = seen[owner] else {
          seen[owner] = (log.url, log.variants, files)
          continue
        }
        guard earlier.variants == log.variants, earlier.files != files else { continue }
        let (folder, test) = splitOwner(owner)
        throw PruneRefusal(
          description: """
            Refusing to prune: the usage logs "\(earlier.folder.path)" and "\(log.url.path)" both \
            ran \(test) (references in "\(folder)") but it used different references:
              \(earlier.folder.lastPathComponent): \(earlier.files.sorted().joined(separator: ", "))
              \(log.url.lastPathComponent): \(files.sorted().joined(separator: ", "))
            The same test asserted differently in two runs of one commit. Make each shard run a \
            test once (check their --filter and --skip), or find why it differs.
            """
        )
      }
    }
  }

  /// The used references grouped by test: `<folder>\u{0}<test name>` to the file names.
  private static func referencesByTest(_ paths: Set<String>) -> [String: Set<String>] {
    var groups: [String: Set<String>] = [:]
    for path in paths {
      let url = URL(fileURLWithPath: path)
      let name = url.lastPathComponent
      guard let dot = name.firstIndex(of: ".") else { continue }
      let owner = url.deletingLastPathComponent().path + "\u{0}" + name[..<dot]
      groups[owner, default: []].insert(name)
    }
    return groups
  }

  private static func splitOwner(_ owner: String) -> (folder: String, test: String) {
    let parts = owner.split(separator: "\u{0}", maxSplits: 1).map(String.init)
    return (parts[0], parts.count > 1 ? parts[1] : "")
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
