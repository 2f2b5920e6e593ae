import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Saves, clears and loads the pending failure records of an artifacts folder.
package enum FailureRecordStore {
  /// Writes `record`, replacing an earlier failure of the same reference (of the same inline
  /// snapshot: see ``FailureRecord/recordKey``).
  package static func save(
    _ record: FailureRecord,
    in artifacts: ArtifactsFolder
  ) throws(SnapshotFileError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(record)
    } catch {
      // Only strings and finite numbers: encoding cannot fail, but must not be a crash if it did.
      throw .unwritable(
        artifacts.failureRecordURL(forReference: record.recordKey),
        "\(error)"
      )
    }
    try AtomicFile.write(data, to: artifacts.failureRecordURL(forReference: record.recordKey))
  }

  /// Removes the pending failure of a reference, if any: it matched or was recorded since. Runs
  /// on every matching assertion, so it is one `unlink` of a path built without `URL`.
  package static func clear(referencePath: String, in artifacts: ArtifactsFolder) {
    SystemCalls.removeFile(artifacts.failureRecordPath(forReference: referencePath))
  }

  /// The largest record file read: 16 MiB. The engine bounds what a record holds (see
  /// ``FailureRecord/difference``), so a larger file was not written by it, and reading it whole
  /// could exhaust memory.
  package static let maximumRecordSize = 16 << 20

  /// The pending failures, oldest first. A file that cannot be read, that is larger than
  /// ``maximumRecordSize`` or that another version of the package wrote, is returned as a
  /// problem naming it rather than stopping the others.
  package static func load(
    from artifacts: ArtifactsFolder
  ) -> (records: [FailureRecord], problems: [String]) {
    let (stored, problems) = loadStored(from: artifacts)
    return (stored.map(\.record), problems)
  }

  /// ``load(from:)`` with the file each record was read from.
  package static func loadStored(
    from artifacts: ArtifactsFolder
  ) -> (stored: [(url: URL, record: FailureRecord)], problems: [String]) {
    let folder = artifacts.failureRecordsFolder
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    var stored: [(url: URL, record: FailureRecord)] = []
    var problems: [String] = []
    for name in names.sorted() where name.hasSuffix(".json") {
      let url = folder.appendingPathComponent(name)
      do {
        stored.append((url, try decode(readBounded(url))))
      } catch let error as UnsupportedVersion {
        problems.append(
          "\(url.path): written by another version of the record format (\(error.version)); skipped"
        )
      } catch let error as Oversized {
        problems.append(
          "\(url.path): \(error.size) bytes, more than a failure record may hold "
            + "(\(maximumRecordSize) bytes); skipped"
        )
      } catch {
        problems.append("\(url.path): \(error)")
      }
    }
    stored.sort {
      ($0.record.recordedAt, $0.record.referencePath) < ($1.record.recordedAt, $1.record.referencePath)
    }
    return (stored, problems)
  }

  /// The file's bytes, refused before reading when it is not a regular file (a pipe would block
  /// the tool) or is larger than ``maximumRecordSize``.
  private static func readBounded(_ url: URL) throws -> Data {
    if case .success(let status) = SystemCalls.status(ofPath: url.path) {
      guard status.st_mode & S_IFMT == S_IFREG else { throw NotAFile() }
      if Int(status.st_size) > maximumRecordSize { throw Oversized(size: Int(status.st_size)) }
    }
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let data = try handle.read(upToCount: maximumRecordSize + 1) ?? Data()
    // A file that grew since, or that `stat` could not size (a pipe).
    guard data.count <= maximumRecordSize else { throw Oversized(size: data.count) }
    return data
  }

  private struct Oversized: Error {
    var size: Int
  }

  private struct NotAFile: Error, CustomStringConvertible {
    var description: String { "not a regular file; skipped" }
  }

  /// A record of any version this build reads, as the current version.
  package static func decode(_ data: Data) throws -> FailureRecord {
    let decoder = JSONDecoder()
    switch try decoder.decode(VersionOnly.self, from: data).version {
    case FailureRecord.currentVersion:
      return try decoder.decode(FailureRecord.self, from: data)
    case 2:
      // Version 3 only added the inline kind and the optional `inline` field.
      var record = try decoder.decode(FailureRecord.self, from: data)
      guard record.kind != .inline, record.inline == nil else {
        throw UnsupportedVersion(version: 2)
      }
      record.version = FailureRecord.currentVersion
      return record
    case 1:
      return try decoder.decode(FailureRecordVersion1.self, from: data).upgraded
    case let other:
      throw UnsupportedVersion(version: other)
    }
  }

  private struct VersionOnly: Decodable {
    var version: Int
  }

  /// A record whose version this build does not know.
  package struct UnsupportedVersion: Error {
    package var version: Int
  }
}
