import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import SnapshotReview

/// A folder reference (`.directory`) is one unit for every command: review shows its changes,
/// accept replaces the whole folder, reject removes the whole new folder, prune keeps or deletes
/// it whole, and the served report accepts it as `accept` does.
@Suite struct FolderSnapshotReviewTests {
  static let site = "testSite.site"

  /// Records a folder reference `testSite.1` in the fixture, then runs an assertion against it
  /// that changes one file, removes one and adds one.
  func failFolder(_ fixture: ReviewFixture) throws {
    let reference = fixture.reference(Self.site)
    try fixture.write(Data("v1\n".utf8), to: reference.appendingPathComponent("index.txt"))
    try fixture.write(Data("old\n".utf8), to: reference.appendingPathComponent("css/old.css"))
    let message = fixture.verify(
      ["index.txt": Data("v2\n".utf8), "css/new.css": Data("new\n".utf8)],
      as: .directory,
      named: "site",
      testName: "testSite()"
    )
    #expect(
      message?.contains("Folder snapshot does not match reference: 1 added, 1 removed") == true
    )
  }

  func siteFailure(_ fixture: ReviewFixture) throws -> PendingFailure {
    let pending = PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: fixture.root)
    return try #require(pending.failures.first { $0.record.testName == "testSite()" })
  }

  func paths(in folder: URL) -> [String] {
    ((try? FolderContents.read(folder)) ?? nil)?.entries.map(\.path) ?? []
  }

  @Test func reviewShowsTheFolderAsOneFailureWithItsChanges() throws {
    try ReviewFixture.with { fixture in
      try failFolder(fixture)
      let (session, console) = fixture.session()

      #expect(session.review(filters: ["testSite"], interactive: false) == .pending)

      #expect(console.output.contains("1 pending"))
      #expect(console.output.contains("+ css/new.css"))
      #expect(console.output.contains("\u{2212} css/old.css"))
      #expect(console.output.contains("\u{2212}v1"))
      #expect(console.output.contains("+v2"))
      #expect(
        console.output.contains(
          "accept: swift run snapshot-testing accept \(fixture.relative(Self.site))"
        )
      )
    }
  }

  @Test func acceptReplacesTheWholeReferenceFolderAndRemovesTheNewOne() throws {
    try ReviewFixture.with { fixture in
      try failFolder(fixture)
      let failed = try siteFailure(fixture).failedSnapshotURL
      #expect(paths(in: failed) == ["css/new.css", "index.txt"])
      let (session, _) = fixture.session()

      #expect(session.resolve(.accept, filters: [fixture.relative(Self.site)]) == .success)

      let reference = fixture.reference(Self.site)
      #expect(paths(in: reference) == ["css/new.css", "index.txt"])
      #expect(contents(of: reference.appendingPathComponent("index.txt")) == Data("v2\n".utf8))
      #expect(!FileManager.default.fileExists(atPath: failed.path))
      // The accepted folder now matches: nothing is pending for it.
      #expect(
        fixture.verify(
          ["index.txt": Data("v2\n".utf8), "css/new.css": Data("new\n".utf8)],
          as: .directory,
          named: "site",
          testName: "testSite()"
        ) == nil
      )
    }
  }

  @Test func rejectingAMissingFolderRemovesItsNewFolderAndWritesNothing() throws {
    try ReviewFixture.with { fixture in
      fixture.verify(
        ["a.txt": Data("a\n".utf8), "b/c.txt": Data("c\n".utf8)],
        as: .directory,
        named: "site",
        testName: "testNewSite()"
      )
      let pending = PendingFailures.load(
        artifactsRoot: fixture.artifacts,
        packageRoot: fixture.root
      )
      let failure = try #require(pending.failures.first { $0.record.testName == "testNewSite()" })
      let (session, console) = fixture.session()

      #expect(session.review(filters: ["testNewSite"], interactive: false) == .pending)
      #expect(console.output.contains("+a.txt\n    +b/c.txt"))
      #expect(HTMLReportTests.render(fixture).contains(#"<span class="added">+b/c.txt</span>"#))

      #expect(session.resolve(.reject, filters: ["testNewSite"]) == .success)
      #expect(!FileManager.default.fileExists(atPath: failure.failedSnapshotURL.path))
      #expect(!FileManager.default.fileExists(atPath: fixture.reference("testNewSite.site").path))
    }
  }

  @Test func theServedReportAcceptsAFolderAsTheCommandDoes() throws {
    try ReviewFixture.with { fixture in
      try failFolder(fixture)
      let (report, _) = ServedReportTests.served(fixture)
      let page = ServedReportTests.text(report.respond(to: ServedReportTests.request("GET", "/")))
      #expect(page.contains(#"<span class="added">+ css/new.css</span>"#))
      let id = try siteFailure(fixture).recordURL.path

      let response = report.respond(
        to: ServedReportTests.request(
          "POST",
          "/api/resolve",
          headers: ["X-Snapshot-Testing-Token": "secret-token"],
          body: #"{"decision": "accept", "ids": [\#(DevToolsBrowser.quoted(id))]}"#
        )
      )

      #expect(response.status == 200)
      #expect(paths(in: fixture.reference(Self.site)) == ["css/new.css", "index.txt"])
    }
  }

  @Test func pruneKeepsAUsedFolderWholeAndDeletesAnUnusedOneWhole() throws {
    try ReviewFixture.with { fixture in
      try failFolder(fixture)
      let stale = fixture.reference("testGoneSite.1")
      try fixture.write(Data("x\n".utf8), to: stale.appendingPathComponent("deep/x.txt"))
      try FileManager.default.createSymbolicLink(
        atPath: stale.appendingPathComponent("link").path,
        withDestinationPath: "deep/x.txt"
      )
      try fixture.setLoggedProcesses()

      let (status, console) = PruneTests().prune(fixture, delete: false)
      #expect(status == .pending)
      #expect(console.output.contains("\(fixture.relative("testGoneSite.1"))\n"))
      // The used folder and the files inside either folder are never listed on their own.
      #expect(!console.output.contains(Self.site))
      #expect(!console.output.contains("deep/x.txt"))

      let (deleted, _) = PruneTests().prune(fixture, delete: true)
      #expect(deleted == .success)
      #expect(!FileManager.default.fileExists(atPath: stale.path))
      #expect(paths(in: fixture.reference(Self.site)) == ["css/old.css", "index.txt"])
    }
  }
}
