import Foundation

/// One failed assertion, as written under the artifacts folder for review tools
/// (`snapshot-testing review`, `accept`, `report`).
///
/// Records live in `<artifacts>/.snapshot-testing/failures/<key>.json`, one per reference: a later
/// failure of the same reference replaces it, and a later match or recording removes it, so the
/// folder holds exactly the failures still pending.
package struct FailureRecord: Codable, Equatable, Sendable {
  /// Why the assertion failed.
  package enum Kind: String, Codable, Sendable {
    /// The snapshot differs from its reference.
    case mismatch
    /// There was no reference, and it was not recorded (record mode `never`, or CI).
    case missing
  }

  package static let currentVersion = 1

  package var version: Int
  package var kind: Kind
  /// The test function's name as the test spells it (`testUser()`).
  package var testName: String
  /// The test file's path.
  package var testFilePath: String
  package var line: Int
  /// The snapshot's name (`named:`), if it has one.
  package var snapshotName: String?
  /// Where the reference lives (or would live).
  package var referencePath: String
  /// The new snapshot, in the artifacts folder.
  package var failedSnapshotPath: String
  /// The files the strategy's diff produced, in the artifacts folder.
  package var attachmentPaths: [String]
  /// The failure message as reported to the test.
  package var message: String
  /// When the failure was recorded, in seconds since 1970.
  package var recordedAt: Double

  package init(
    kind: Kind,
    testName: String,
    testFilePath: String,
    line: Int,
    snapshotName: String?,
    referencePath: String,
    failedSnapshotPath: String,
    attachmentPaths: [String],
    message: String,
    recordedAt: Double
  ) {
    self.version = Self.currentVersion
    self.kind = kind
    self.testName = testName
    self.testFilePath = testFilePath
    self.line = line
    self.snapshotName = snapshotName
    self.referencePath = referencePath
    self.failedSnapshotPath = failedSnapshotPath
    self.attachmentPaths = attachmentPaths
    self.message = message
    self.recordedAt = recordedAt
  }

  /// The folder holding the records under an artifacts root.
  package static func folder(artifactsRoot: URL) -> URL {
    artifactsRoot.appendingPathComponent(".snapshot-testing/failures", isDirectory: true)
  }

  /// The record file for a reference: its name is a hash of the reference's path, so each
  /// reference has at most one pending failure.
  package static func fileURL(forReference referencePath: String, artifactsRoot: URL) -> URL {
    folder(artifactsRoot: artifactsRoot).appendingPathComponent(
      fileName(forReference: referencePath)
    )
  }

  /// `<16 hex digits>.json`: the FNV-1a hash of the reference's path.
  static func fileName(forReference referencePath: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
    for byte in referencePath.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let name = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - name.count) + name + ".json"
  }

  /// The records of pending failures under an artifacts root, oldest first; unreadable files are
  /// returned as errors naming them rather than stopping the others.
  package static func load(artifactsRoot: URL) -> (records: [FailureRecord], problems: [String]) {
    let folder = folder(artifactsRoot: artifactsRoot)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    var records: [FailureRecord] = []
    var problems: [String] = []
    for name in names.sorted() where name.hasSuffix(".json") {
      let url = folder.appendingPathComponent(name)
      do {
        let record = try JSONDecoder().decode(FailureRecord.self, from: Data(contentsOf: url))
        guard record.version == currentVersion else {
          problems.append("\(url.path): written by another version (\(record.version))")
          continue
        }
        records.append(record)
      } catch {
        problems.append("\(url.path): \(error)")
      }
    }
    return (
      records.sorted { ($0.recordedAt, $0.referencePath) < ($1.recordedAt, $1.referencePath) },
      problems
    )
  }
}

extension FailureRecord {
  /// Writes the record atomically, replacing an older failure of the same reference.
  func save(artifactsRoot: URL) throws(SnapshotFileError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = (try? encoder.encode(self)) ?? Data()
    try SnapshotFileStore.write(
      data,
      to: Self.fileURL(forReference: referencePath, artifactsRoot: artifactsRoot)
    )
  }

  /// Removes the pending failure of a reference, if any: it matched or was recorded since.
  ///
  /// `artifactsRoot` is the root's path as configured (see `artifactsRootPath`). This runs on
  /// every matching assertion, where building the record's path through `URL` cost as much as
  /// the rest of the match; so the records folder's path is built through `URL` once per
  /// absolute root and the file name is appended to it (the file name has no `/`, and the folder's
  /// path never ends with one, so this is the path `fileURL(…).path` gives).
  static func clear(referencePath: String, artifactsRoot: String) {
    let path =
      folderPath(artifactsRoot: artifactsRoot) + "/" + fileName(forReference: referencePath)
    assert(
      path
        == fileURL(
          forReference: referencePath,
          artifactsRoot: URL(fileURLWithPath: artifactsRoot, isDirectory: true)
        ).path
    )
    _ = unlink(path)
  }

  private static let folderPathsLock = NSLock()
  nonisolated(unsafe) private static var folderPaths: [String: String] = [:]

  /// `folder(artifactsRoot:).path`, cached for absolute roots (a relative root depends on the
  /// current directory, which may change).
  private static func folderPath(artifactsRoot: String) -> String {
    func build() -> String {
      folder(artifactsRoot: URL(fileURLWithPath: artifactsRoot, isDirectory: true)).path
    }
    guard artifactsRoot.hasPrefix("/") else { return build() }
    if let cached = folderPathsLock.withLock({ folderPaths[artifactsRoot] }) { return cached }
    let path = build()
    folderPathsLock.withLock { folderPaths[artifactsRoot] = path }
    return path
  }
}
