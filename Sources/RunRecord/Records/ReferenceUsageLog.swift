import Foundation

/// Lists every reference that assertions read or wrote, for finding references no test uses
/// (`snapshot-testing prune`).
///
/// Enabled by `SNAPSHOT_TESTING_USED_REFERENCES=<folder>`. Each test process appends to a file of its
/// own in that folder (`references-<pid>-<random>.txt`, one path a line) and describes itself in
/// `process-<pid>-<random>.json` (its arguments, so that a filtered run can be recognised), so
/// parallel tests and several test processes never write to the same file. The reference
/// variants its assertions used are listed in `variants-<pid>-<random>.txt`, one name a line, so
/// that prune keeps the references of variants the run could not produce.
package final class ReferenceUsageLog: @unchecked Sendable {
  /// What a test process that logged usage was asked to run.
  package struct ProcessInfoRecord: Codable, Sendable {
    package var arguments: [String]
    package var startedAt: Double
  }

  /// The open log of each folder, so a process appends to one file per folder.
  private static let logs = LockedCache<String, ReferenceUsageLog?>()

  private let lock = NSLock()
  private let descriptor: Int32
  private var logged: Set<String> = []
  private let variantsURL: URL
  private var variants: Set<String> = []

  private init?(folder: URL) {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let stem = "\(getpid())-\(UUID().uuidString.prefix(8))"
    let logURL = folder.appendingPathComponent("references-\(stem).txt")
    let descriptor = open(logURL.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
    self.variantsURL = folder.appendingPathComponent("variants-\(stem).txt")
    let record = ProcessInfoRecord(
      arguments: CommandLine.arguments,
      startedAt: Date().timeIntervalSince1970
    )
    if let data = try? JSONEncoder().encode(record) {
      try? AtomicFile.write(data, to: folder.appendingPathComponent("process-\(stem).json"))
    }
  }

  /// Notes that `referencePath` was used, and under which reference variant, if
  /// `SNAPSHOT_TESTING_USED_REFERENCES` names a folder.
  package static func note(
    _ referencePath: String,
    variant: String? = nil,
    environment: RunEnvironment
  ) {
    guard let folder = environment[.usedReferences] else { return }
    let log = logs.value(for: folder) {
      ReferenceUsageLog(folder: URL(fileURLWithPath: folder, isDirectory: true))
    }
    log?.append(referencePath)
    if let variant { log?.appendVariant(variant) }
  }

  /// Rewrites the variants file when a variant is new to this process; a process uses few.
  private func appendVariant(_ variant: String) {
    lock.withLock {
      guard variants.insert(variant).inserted else { return }
      let text = variants.sorted().map { $0 + "\n" }.joined()
      try? AtomicFile.write(Data(text.utf8), to: variantsURL)
    }
  }

  /// The reference variants the processes that logged in `folder` used.
  package static func loadVariants(folder: URL) throws -> Set<String> {
    var variants: Set<String> = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where name.hasPrefix("variants-") && name.hasSuffix(".txt") {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      variants.formUnion(text.split(separator: "\n").map(String.init))
    }
    return variants
  }

  private func append(_ path: String) {
    lock.withLock {
      guard logged.insert(path).inserted else { return }
      // One write call per line on an O_APPEND descriptor: lines never interleave.
      let line = Array("\(path)\n".utf8)
      _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
  }

  /// Reads every reference path logged in `folder`, and the arguments of the processes that
  /// logged them.
  package static func load(folder: URL) throws -> (
    paths: Set<String>, processes: [ProcessInfoRecord]
  ) {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    var paths: Set<String> = []
    var processes: [ProcessInfoRecord] = []
    for name in names {
      let url = folder.appendingPathComponent(name)
      if name.hasPrefix("references-") && name.hasSuffix(".txt") {
        let text = try String(contentsOf: url, encoding: .utf8)
        // At line feeds only, as `append` writes them: split at characters, "\r\n" is one, and a
        // path ending in "\r" would swallow the next line.
        paths.formUnion(
          text.utf8.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        )
      } else if name.hasPrefix("process-") && name.hasSuffix(".json") {
        processes.append(
          try JSONDecoder().decode(ProcessInfoRecord.self, from: Data(contentsOf: url))
        )
      }
    }
    return (paths, processes)
  }
}
