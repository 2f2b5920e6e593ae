import Foundation
import Testing

@testable import RunRecord

@Suite struct ArtifactsFolderTests {
  @Test func namesEveryFileOfAFailure() {
    let artifacts = ArtifactsFolder(rootPath: "/artifacts")
    #expect(
      artifacts.newSnapshotURL(testFileName: "UserTests", referenceFileName: "testUser.1.txt").path
        == "/artifacts/UserTests/testUser.1.txt"
    )
    #expect(
      artifacts.attachmentURL(
        testFileName: "UserTests",
        referenceBaseName: "testUser.1",
        attachmentName: "difference.patch",
        position: 1
      ).path == "/artifacts/UserTests/testUser.1.difference.patch"
    )
    #expect(
      artifacts.attachmentURL(
        testFileName: "UserTests",
        referenceBaseName: "testUser.1",
        attachmentName: nil,
        position: 2
      ).lastPathComponent == "testUser.1.attachment-2"
    )
  }

  @Test(arguments: ["../../etc/passwd", "..", "", "a/b"])
  func anAttachmentNameNeverLeavesTheFolder(_ name: String) {
    let url = ArtifactsFolder(rootPath: "/artifacts").attachmentURL(
      testFileName: "T",
      referenceBaseName: "t.1",
      attachmentName: name,
      position: 1
    )
    #expect(url.deletingLastPathComponent().path == "/artifacts/T")
    #expect(!url.lastPathComponent.contains("/"))
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
