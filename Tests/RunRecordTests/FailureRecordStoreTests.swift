import Foundation
import Testing

@testable import RunRecord

@Suite struct FailureRecordStoreTests {
  static func record(reference: String = "/pkg/__Snapshots__/T/t.1.png", at time: Double = 1)
    -> FailureRecord
  {
    FailureRecord(
      reason: .mismatch,
      kind: .image,
      pathExtension: "png",
      testName: "testBadge()",
      testFilePath: "/pkg/Tests/T.swift",
      line: 12,
      snapshotName: nil,
      referencePath: reference,
      headline: "Snapshot does not match reference.",
      difference: "Newly-taken snapshot does not match reference.",
      diffToolCommand: "ksdiff a b",
      files: [
        .init(role: .newSnapshot, path: "/tmp/T/t.1.png"),
        .init(role: .reference, path: "/tmp/T/t.1.reference.png"),
        .init(role: .differenceImage, path: "/tmp/T/t.1.difference.png"),
      ],
      message: "the whole message",
      recordedAt: time
    )
  }

  @Test func aSavedRecordLoadsBackEqualAndOldestFirst() throws {
    try withTemporaryFolder { root in
      let artifacts = ArtifactsFolder(root: root)
      let later = Self.record(reference: "/b", at: 20)
      let earlier = Self.record(reference: "/a", at: 10)
      try FailureRecordStore.save(later, in: artifacts)
      try FailureRecordStore.save(earlier, in: artifacts)
      let (records, problems) = FailureRecordStore.load(from: artifacts)
      #expect(problems.isEmpty)
      #expect(records == [earlier, later])
      #expect(records.first?.version == 3)
    }
  }

  @Test func theFormatIsVersionedData() throws {
    let data = try JSONEncoder().encode(Self.record())
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["version"] as? Int == 3)
    #expect(object["reason"] as? String == "mismatch")
    #expect(object["kind"] as? String == "image")
    let files = try #require(object["files"] as? [[String: String]])
    #expect(files.map { $0["role"] } == ["newSnapshot", "reference", "differenceImage"])
  }

  @Test func clearingRemovesOnlyThatReferencesRecord() throws {
    try withTemporaryFolder { root in
      let artifacts = ArtifactsFolder(root: root)
      try FailureRecordStore.save(Self.record(reference: "/a"), in: artifacts)
      try FailureRecordStore.save(Self.record(reference: "/b"), in: artifacts)
      FailureRecordStore.clear(referencePath: "/a", in: artifacts)
      #expect(FailureRecordStore.load(from: artifacts).records.map(\.referencePath) == ["/b"])
    }
  }

  @Test func aVersion1RecordStillLoads() throws {
    let json = """
      {"version": 1, "kind": "mismatch", "testName": "testGreeting()",
       "testFilePath": "/pkg/Tests/GreetingTests.swift", "line": 7, "snapshotName": "hi",
       "referencePath": "/pkg/__Snapshots__/GreetingTests/testGreeting.hi.txt",
       "failedSnapshotPath": "/tmp/GreetingTests/testGreeting.hi.txt",
       "attachmentPaths": ["/tmp/GreetingTests/testGreeting.hi.difference.patch"],
       "message": "Snapshot \\"hi\\" does not match reference.\\n\\nksdiff a b\\n\\n@@ −1 +1 @@",
       "recordedAt": 5}
      """
    let record = try FailureRecordStore.decode(Data(json.utf8))
    #expect(record.version == 3)
    #expect(record.reason == .mismatch)
    #expect(record.kind == .text)
    #expect(record.pathExtension == "txt")
    #expect(record.headline == #"Snapshot "hi" does not match reference."#)
    #expect(record.newSnapshotPath == "/tmp/GreetingTests/testGreeting.hi.txt")
    #expect(
      record.files.last
        == FailureRecord.File(
          role: .patch,
          path: "/tmp/GreetingTests/testGreeting.hi.difference.patch"
        )
    )
    #expect(record.line == 7 && record.snapshotName == "hi" && record.recordedAt == 5)
  }

  @Test func aRecordOfAnotherVersionIsNamedAndSkipped() throws {
    try withTemporaryFolder { root in
      let artifacts = ArtifactsFolder(root: root)
      try FailureRecordStore.save(Self.record(reference: "/kept"), in: artifacts)
      let future = artifacts.failureRecordsFolder.appendingPathComponent("0000000000000000.json")
      try Data(#"{"version": 4, "somethingNew": true}"#.utf8).write(to: future)
      let (records, problems) = FailureRecordStore.load(from: artifacts)
      #expect(records.map(\.referencePath) == ["/kept"])
      #expect(problems.count == 1)
      #expect(problems.first?.hasPrefix(future.path) == true)
      #expect(problems.first?.contains("another version of the record format (4)") == true)
    }
  }

  @Test func anUnreadableRecordIsReportedNotFatal() throws {
    try withTemporaryFolder { root in
      let artifacts = ArtifactsFolder(root: root)
      let folder = artifacts.failureRecordsFolder
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("{ not json".utf8).write(to: folder.appendingPathComponent("broken.json"))
      let (records, problems) = FailureRecordStore.load(from: artifacts)
      #expect(records.isEmpty)
      #expect(problems.count == 1)
      #expect(problems.first?.hasPrefix(folder.appendingPathComponent("broken.json").path) == true)
    }
  }

  @Test func aVersion2RecordStillLoadsAsVersion3() throws {
    var object = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.record())) as? [String: Any]
    )
    object["version"] = 2
    let record = try FailureRecordStore.decode(JSONSerialization.data(withJSONObject: object))
    #expect(record.version == 3)
    #expect(record.inline == nil)
    #expect(record.referencePath == Self.record().referencePath)
  }

  @Test func aVersion2RecordCannotClaimTheInlineKind() throws {
    var object = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.record())) as? [String: Any]
    )
    object["version"] = 2
    object["kind"] = "inline"
    #expect(throws: FailureRecordStore.UnsupportedVersion.self) {
      try FailureRecordStore.decode(JSONSerialization.data(withJSONObject: object))
    }
  }

  @Test func inlineRecordsAreKeyedByTheirCallNotTheirTestFile() throws {
    try withTemporaryFolder { root in
      let artifacts = ArtifactsFolder(root: root)
      func inline(line: Int, actual: String, at time: Double) -> FailureRecord {
        var record = Self.record(reference: "/pkg/Tests/T.swift", at: time)
        record.kind = .inline
        record.line = line
        record.inline = .init(
          column: 24, trailingClosureLabel: "matches", trailingClosureOffset: 0,
          expected: "old", actual: actual)
        return record
      }
      try FailureRecordStore.save(inline(line: 3, actual: "a", at: 1), in: artifacts)
      try FailureRecordStore.save(inline(line: 9, actual: "b", at: 2), in: artifacts)
      try FailureRecordStore.save(inline(line: 3, actual: "c", at: 3), in: artifacts)
      let records = FailureRecordStore.load(from: artifacts).records
      #expect(records.map(\.inline?.actual) == ["b", "c"])
      #expect(records.first?.recordKey == "/pkg/Tests/T.swift:9:24+0")
      let data = try JSONEncoder().encode(records[0])
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let fields = try #require(object["inline"] as? [String: Any])
      #expect(fields["column"] as? Int == 24 && fields["expected"] as? String == "old")
    }
  }
}
