import Foundation
import Testing

@testable import RunRecord

@Suite struct ArtifactsFolderTests {
  static let userTests = "/src/app/Tests/AppTests/__Snapshots__/UserTests"

  @Test func namesEveryFileOfAFailure() {
    let artifacts = ArtifactsFolder(rootPath: "/artifacts")
    #expect(
      artifacts.newSnapshotURL(
        referenceFolder: Self.userTests, referenceFileName: "testUser.1.txt"
      ).path == "/artifacts/Tests/AppTests/UserTests/testUser.1.txt"
    )
    #expect(
      artifacts.attachmentURL(
        referenceFolder: Self.userTests,
        referenceBaseName: "testUser.1",
        attachmentName: "difference.patch",
        position: 1
      ).path == "/artifacts/Tests/AppTests/UserTests/testUser.1.difference.patch"
    )
    #expect(
      artifacts.attachmentURL(
        referenceFolder: Self.userTests,
        referenceBaseName: "testUser.1",
        attachmentName: nil,
        position: 2
      ).lastPathComponent == "testUser.1.attachment-2"
    )
  }

  /// Two test targets with a test file of the same name (`Tests/A/Shared.swift`,
  /// `Tests/B/Shared.swift`) once wrote their failures to one `Shared/` folder, so accepting one
  /// wrote the other's snapshot into its reference.
  @Test func testFilesOfTheSameNameInTwoTargetsNeverShareAFile() {
    let artifacts = ArtifactsFolder(rootPath: "/artifacts")
    let a = artifacts.newSnapshotURL(
      referenceFolder: "/pkg/Tests/A/__Snapshots__/Shared", referenceFileName: "test.1.txt")
    let b = artifacts.newSnapshotURL(
      referenceFolder: "/pkg/Tests/B/__Snapshots__/Shared", referenceFileName: "test.1.txt")
    #expect(a.path == "/artifacts/Tests/A/Shared/test.1.txt")
    #expect(b.path == "/artifacts/Tests/B/Shared/test.1.txt")
  }

  /// A `Tests` folder inside a target's (`Tests/A/Tests/…`, `Tests/B/Tests/…`) must not make
  /// two targets meet again.
  @Test func theFirstTestsComponentKeepsNestedTestsFoldersApart() {
    let artifacts = ArtifactsFolder(rootPath: "/artifacts")
    let a = artifacts.folder(forReferenceFolder: "/pkg/Tests/A/Tests/__Snapshots__/S")
    let b = artifacts.folder(forReferenceFolder: "/pkg/Tests/B/Tests/__Snapshots__/S")
    #expect(a.path == "/artifacts/Tests/A/Tests/S")
    #expect(a != b)
  }

  @Test func aFolderOutsideAnyTestsFolderKeepsItsWholePath() {
    let url = ArtifactsFolder(rootPath: "/artifacts").newSnapshotURL(
      referenceFolder: "/home/me/references/../refs", referenceFileName: "t.1.txt")
    #expect(url.path == "/artifacts/home/me/refs/t.1.txt")
  }

  @Test(arguments: ["../../etc/passwd", "..", "", "a/b"])
  func anAttachmentNameNeverLeavesTheFolder(_ name: String) {
    let url = ArtifactsFolder(rootPath: "/artifacts").attachmentURL(
      referenceFolder: "/p/Tests/T/__Snapshots__/T",
      referenceBaseName: "t.1",
      attachmentName: name,
      position: 1
    )
    #expect(url.deletingLastPathComponent().path == "/artifacts/Tests/T/T")
    #expect(!url.lastPathComponent.contains("/"))
  }

  @Test func containsOnlyWhatLiesInsideOnceLinksAreResolved() throws {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("ArtifactsFolderTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    let root = base.appendingPathComponent("artifacts")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Tests"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("escape").path, withDestinationPath: "/etc")
    let artifacts = ArtifactsFolder(root: root)
    #expect(artifacts.contains(root.appendingPathComponent("Tests/A/new.txt")))
    #expect(!artifacts.contains(root.appendingPathComponent("Tests/../../outside.txt")))
    #expect(!artifacts.contains(root.appendingPathComponent("escape/passwd")))
    #expect(!artifacts.contains(URL(fileURLWithPath: "/etc/passwd")))
    #expect(!artifacts.contains(root))
  }

  @Test(arguments: ["/artifacts", "/artifacts/", "relative/artifacts"])
  func theFastRecordPathIsTheURLsPath(_ root: String) {
    let artifacts = ArtifactsFolder(rootPath: root)
    let reference = "/pkg/Tests/__Snapshots__/T/t.1.txt"
    #expect(
      artifacts.failureRecordPath(forReference: reference)
        == artifacts.failureRecordURL(forReference: reference).path
    )
  }

  @Test func eachReferenceHasItsOwnRecordFile() {
    let artifacts = ArtifactsFolder(rootPath: "/a")
    let first = artifacts.failureRecordURL(forReference: "/x/t.1.txt").lastPathComponent
    let second = artifacts.failureRecordURL(forReference: "/x/t.2.txt").lastPathComponent
    #expect(first != second)
    #expect(first.count == "0123456789abcdef.json".count)
  }
}
