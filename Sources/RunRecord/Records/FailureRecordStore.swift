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
  /// Writes `record`, replacing an earlier failure of the same reference.
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
        artifacts.failureRecordURL(forReference: record.referencePath),
        "\(error)"
      )
    }
    try AtomicFile.write(data, to: artifacts.failureRecordURL(forReference: record.referencePath))
  }

  /// Removes the pending failure of a reference, if any: it matched or was recorded since. Runs
  /// on every matching assertion, so it is one `unlink` of a path built without `URL`.
  package static func clear(referencePath: String, in artifacts: ArtifactsFolder) {
    _ = unlink(artifacts.failureRecordPath(forReference: referencePath))
  }

  /// The pending failures, oldest first. A file that cannot be read, or that another version of
  /// the package wrote, is returned as a problem naming it rather than stopping the others.
  package static func load(
    from artifacts: ArtifactsFolder
  ) -> (records: [FailureRecord], problems: [String]) {
    let folder = artifacts.failureRecordsFolder
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    var records: [FailureRecord] = []
    var problems: [String] = []
    for name in names.sorted() where name.hasSuffix(".json") {
      let url = folder.appendingPathComponent(name)
      do {
        records.append(try decode(Data(contentsOf: url)))
      } catch let error as UnsupportedVersion {
        problems.append(
          "\(url.path): written by another version of the record format (\(error.version)); skipped"
        )
      } catch {
        problems.append("\(url.path): \(error)")
      }
    }
    records.sort { ($0.recordedAt, $0.referencePath) < ($1.recordedAt, $1.referencePath) }
    return (records, problems)
  }

  /// A record of any version this build reads, as the current version.
  package static func decode(_ data: Data) throws -> FailureRecord {
    let decoder = JSONDecoder()
    switch try decoder.decode(VersionOnly.self, from: data).version {
    case FailureRecord.currentVersion:
      return try decoder.decode(FailureRecord.self, from: data)
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
