import Foundation

/// Lists every reference that assertions read or wrote, and which tests each test process was
/// given, for finding references no test uses (`snapshot-testing prune`).
///
/// Enabled by `SNAPSHOT_TESTING_USED_REFERENCES=<folder>`. Each test process writes files of its own
/// in that folder, named by ``UsageLogFolder`` with its `<pid>-<random>` stem, so parallel tests
/// and the several processes of `swift test --parallel` never write to the same file:
///
/// - `process-<stem>.json`: its arguments (the tests it was given) and the git commit it ran on,
///   written as the process starts (before its first test, by a load-time hook of
///   `SnapshotTesting`), so that a process that made no snapshot assertion is known too;
/// - `references-<stem>.txt`: the references it used, one path a line;
/// - `variants-<stem>.txt`: the reference variants its assertions used, one name a line, so that
///   prune keeps the references of variants the run could not produce;
/// - `finished-<stem>`: written when the process exits normally. A process without it crashed or
///   was killed, and the references of the tests it did not finish would look unused.
package final class ReferenceUsageLog: @unchecked Sendable {
  /// What a test process that logged usage was asked to run: data with a version, as every
  /// record a tool reads. Files written before it had one read as version 1.
  package struct ProcessInfoRecord: Codable, Sendable {
    /// The version this build writes; it reads this one and 1.
    package static let currentVersion = 2

    package var version: Int
    package var arguments: [String]
    package var startedAt: Double
    /// The git commit checked out where the process ran; `nil` outside a git checkout.
    package var revision: String?

    package init(arguments: [String], startedAt: Double, revision: String? = nil) {
      self.version = Self.currentVersion
      self.arguments = arguments
      self.startedAt = startedAt
      self.revision = revision
    }

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
      guard version <= Self.currentVersion else { throw UnsupportedVersion(version: version) }
      arguments = try container.decode([String].self, forKey: .arguments)
      startedAt = try container.decode(Double.self, forKey: .startedAt)
      revision = try container.decodeIfPresent(String.self, forKey: .revision)
    }
  }

  /// A process record written by a newer version of the package.
  package struct UnsupportedVersion: Error, CustomStringConvertible {
    package var version: Int
    package var description: String {
      "written by a newer version of the package (process record version \(version))"
    }
  }

  /// One test process's description, as a usage folder holds it.
  package struct LoggedProcess: Sendable {
    /// The `<pid>-<random>` stem of its files.
    package var stem: String
    package var record: ProcessInfoRecord
    /// Whether it exited normally (its `finished-<stem>` file exists).
    package var finished: Bool

    package var arguments: [String] { record.arguments }
  }

  /// What a usage folder holds.
  package struct Contents: Sendable {
    /// Every reference path an assertion used.
    package var paths: Set<String>
    package var processes: [LoggedProcess]
  }

  /// The open log of each folder, so a process appends to one file per folder.
  private static let logs = LockedCache<String, ReferenceUsageLog?>()

  private let lock = NSLock()
  private let descriptor: Int32
  private var logged: Set<String> = []
  private let folder: UsageLogFolder
  private let stem: String
  private var variants: Set<String> = []

  private init?(folder: URL, arguments: [String]) {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let stem = UsageLogFolder.newStem()
    let folder = UsageLogFolder(folder)
    let logURL = folder.file(.references, stem: stem)
    guard
      case .success(let descriptor) = SystemCalls.open(
        logURL.path, flags: O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode: 0o644)
    else { return nil }
    self.descriptor = descriptor
    self.folder = folder
    self.stem = stem
    let record = ProcessInfoRecord(
      arguments: arguments,
      startedAt: Date().timeIntervalSince1970,
      revision: GitRevision.current(
        at: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
      )
    )
    if let data = try? JSONEncoder().encode(record) {
      try? AtomicFile.write(data, to: folder.file(.process, stem: stem))
    }
    Self.markFinishedAtExit
  }

  /// The log of `folder`, opened (and this process described in it) on first use.
  private static func log(in folder: String, arguments: [String]) -> ReferenceUsageLog? {
    logs.value(for: folder) {
      ReferenceUsageLog(folder: URL(fileURLWithPath: folder, isDirectory: true), arguments: arguments)
    }
  }

  /// Describes this process in the folder `SNAPSHOT_TESTING_USED_REFERENCES` names, if it names
  /// one: called as the test process starts, before any test runs.
  package static func start(arguments: [String], environment: RunEnvironment) {
    guard let folder = environment[.usedReferences], !folder.isEmpty else { return }
    _ = log(in: folder, arguments: arguments)
  }

  /// Notes that `referencePath` was used, and under which reference variant, if
  /// `SNAPSHOT_TESTING_USED_REFERENCES` names a folder.
  package static func note(
    _ referencePath: String,
    variant: String? = nil,
    environment: RunEnvironment
  ) {
    guard let folder = environment[.usedReferences], !folder.isEmpty else { return }
    let log = log(in: folder, arguments: CommandLine.arguments)
    log?.append(referencePath)
    if let variant { log?.appendVariant(variant) }
  }

  /// Registers, once, the exit handler that marks every log this process opened as finished. A
  /// crash or a kill skips it, which is the point.
  private static let markFinishedAtExit: Void = {
    atexit {
      for log in ReferenceUsageLog.logs.cachedValues {
        guard let log else { continue }
        let marker = log.folder.file(.finished, stem: log.stem)
        _ = FileManager.default.createFile(atPath: marker.path, contents: Data())
      }
    }
  }()

  /// Rewrites the variants file when a variant is new to this process; a process uses few.
  private func appendVariant(_ variant: String) {
    lock.withLock {
      guard variants.insert(variant).inserted else { return }
      let text = variants.sorted().map { $0 + "\n" }.joined()
      try? AtomicFile.write(Data(text.utf8), to: folder.file(.variants, stem: stem))
    }
  }

  /// The reference variants the processes that logged in `folder` used.
  package static func loadVariants(folder: URL) throws -> Set<String> {
    var variants: Set<String> = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where UsageLogFolder.parse(name)?.kind == .variants {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      variants.formUnion(text.split(separator: "\n").map(String.init))
    }
    return variants
  }

  private func append(_ path: String) {
    lock.withLock {
      guard logged.insert(path).inserted else { return }
      // One write per line on an O_APPEND descriptor (a regular file takes it whole): lines
      // never interleave.
      _ = SystemCalls.writeAll(Array("\(path)\n".utf8), to: descriptor)
    }
  }

  /// Reads every reference path logged in `folder`, and the processes that logged there.
  package static func load(folder: URL) throws -> Contents {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    var paths: Set<String> = []
    var processes: [LoggedProcess] = []
    let finished = Set(names.compactMap { UsageLogFolder.parse($0) }.filter { $0.kind == .finished }.map(\.stem))
    for name in names {
      guard let (kind, stem) = UsageLogFolder.parse(name) else { continue }
      let url = folder.appendingPathComponent(name)
      switch kind {
      case .references:
        let text = try String(contentsOf: url, encoding: .utf8)
        // At line feeds only, as `append` writes them: split at characters, "\r\n" is one, and a
        // path ending in "\r" would swallow the next line.
        paths.formUnion(
          text.utf8.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        )
      case .process:
        processes.append(
          LoggedProcess(
            stem: stem,
            record: try JSONDecoder().decode(ProcessInfoRecord.self, from: Data(contentsOf: url)),
            finished: finished.contains(stem)
          )
        )
      case .variants, .finished:
        continue
      }
    }
    return Contents(paths: paths, processes: processes.sorted { $0.stem < $1.stem })
  }
}
