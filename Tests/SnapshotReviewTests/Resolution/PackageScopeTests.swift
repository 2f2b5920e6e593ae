import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import SnapshotReview

/// Two packages on one machine share one artifacts folder (the default one, the system's
/// temporary folder, is shared by every package): the tool run in one sees, accepts, rejects and
/// reports only that package's failures, and never lists, changes or deletes the other's records
/// unless `--all-packages` asks for them.
@Suite struct PackageScopeTests {
  /// A second package beside the fixture's, laid out as the fixture is (`Tests/AppTests/
  /// __Snapshots__/GreetingTests`, as two packages made by one template are), whose two
  /// failures are recorded by real assertions into the fixture's artifacts folder.
  struct OtherPackage {
    let root: URL
    var snapshots: URL { root.appendingPathComponent("Tests/AppTests/__Snapshots__/GreetingTests") }
    var changed: URL { snapshots.appendingPathComponent("testOther.1.txt") }
    var fresh: URL { snapshots.appendingPathComponent("testOtherFresh.1.txt") }

    init(beside fixture: ReviewFixture) throws {
      root = fixture.root.deletingLastPathComponent().appendingPathComponent("Other")
      try fixture.write(
        Data("// swift-tools-version:6.0\n".utf8), to: root.appendingPathComponent("Package.swift"))
      try fixture.write(Data("other\nold\n".utf8), to: snapshots.appendingPathComponent("testOther.1.txt"))
      RunEnvironment.withOverride(fixture.environment) {
        _ = verifySnapshot(
          of: "other\nnew\n", as: .lines, record: .never, snapshotDirectory: snapshots.path,
          testName: "testOther()")
        _ = verifySnapshot(
          of: "other\nfresh\n", as: .lines, record: .never, snapshotDirectory: snapshots.path,
          testName: "testOtherFresh()")
      }
    }

    /// The files of its two failures in the shared artifacts folder: records and new snapshots.
    func artifacts(in fixture: ReviewFixture) -> [URL] {
      let pending = PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: root)
      return pending.failures.flatMap { [$0.recordURL] + $0.files.map(\.url) }
    }
  }

  func session(_ fixture: ReviewFixture, root: URL, allPackages: Bool = false) -> (
    ReviewSession, ScriptedConsole
  ) {
    let console = ScriptedConsole()
    var session = ReviewSession(
      artifactsRoot: fixture.artifacts, hints: CommandHints(packageRoot: root), console: console)
    session.includesOtherPackages = allPackages
    return (session, console)
  }

  @Test func eachPackageReviewsOnlyItsOwnFailures() throws {
    try ReviewFixture.with { fixture in
      let other = try OtherPackage(beside: fixture)
      let otherFiles = other.artifacts(in: fixture)
      #expect(otherFiles.count == 5, "two records, two new snapshots, a patch: \(otherFiles)")

      // In the fixture's package: its 4 failures, and a note that 2 others were left out.
      let (mine, console) = session(fixture, root: fixture.root)
      #expect(mine.review(filters: [], interactive: false) == .pending)
      #expect(console.output.hasPrefix("4 pending snapshot failures in "), "\(console.output)")
      #expect(!console.output.contains("testOther"), "\(console.output)")
      #expect(
        console.errors.contains("note: left out 2 pending failures of other packages in "),
        "\(console.errors)")
      #expect(console.errors.contains("pass --all-packages to see them"))

      let (json, jsonConsole) = session(fixture, root: fixture.root)
      #expect(json.review(filters: [], format: .json) == .pending)
      let failures = try #require(try JSONValue.parse(jsonConsole.output)["failures"]?.array)
      #expect(failures.count == 4)
      #expect(!jsonConsole.output.contains("testOther"))
      let (github, githubConsole) = session(fixture, root: fixture.root)
      _ = github.review(filters: [], format: .github)
      #expect(!githubConsole.output.contains("testOther"))

      let page = fixture.artifacts.appendingPathComponent("report.html")
      let (report, _) = session(fixture, root: fixture.root)
      #expect(report.report(to: page, filters: []) == .success)
      let written = try String(contentsOf: page, encoding: .utf8)
      #expect(written.contains("testGreeting()"))
      #expect(!written.contains("testOther"))
      let served = ServedReport(session: report, filters: [], token: "t")
      served.listeningPort = ServedReportTests.port
      let servedPage = ServedReportTests.text(served.respond(to: ServedReportTests.request("GET", "/")))
      #expect(servedPage.contains("testGreeting()"), "\(servedPage.prefix(300))")
      #expect(!servedPage.contains("testOther"))

      // Naming the other package's failure selects nothing here, and writes nothing there.
      let (accept, acceptConsole) = session(fixture, root: fixture.root)
      #expect(accept.resolve(.accept, filters: ["testOther"]) == .noMatch)
      #expect(acceptConsole.errors.contains("No pending failure matches \"testOther\""))
      #expect(contents(of: other.changed) == Data("other\nold\n".utf8))
      #expect(!FileManager.default.fileExists(atPath: other.fresh.path))

      // `reject --all` here deletes this package's failures only.
      let (reject, rejectConsole) = session(fixture, root: fixture.root)
      #expect(reject.resolve(.reject, filters: []) == .success, "\(rejectConsole.errors)")
      #expect(rejectConsole.output.hasSuffix("Rejected 4.\n"))
      for file in otherFiles {
        #expect(FileManager.default.fileExists(atPath: file.path), "deleted \(file.path)")
      }

      // In the other package: its own two, accepted there.
      let (theirs, theirConsole) = session(fixture, root: other.root)
      #expect(theirs.review(filters: [], interactive: false) == .pending)
      #expect(theirConsole.output.hasPrefix("2 pending snapshot failures in "))
      #expect(!theirConsole.errors.contains("left out"), "\(theirConsole.errors)")
      #expect(theirs.resolve(.accept, filters: ["testOther"]) == .success)
      #expect(contents(of: other.changed) == Data("other\nnew\n".utf8))
      #expect(contents(of: other.fresh) == Data("other\nfresh\n".utf8))
      #expect(PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: other.root)
        .failures.isEmpty)
    }
  }

  /// `--all-packages` lists the other package's failures too; accepting them still writes only
  /// into this package (its layout matches, so they are taken for another checkout of it), never
  /// into the other one.
  @Test func allPackagesShowsTheOthersAndNeverWritesIntoThem() throws {
    try ReviewFixture.with { fixture in
      let other = try OtherPackage(beside: fixture)
      let (session, console) = session(fixture, root: fixture.root, allPackages: true)
      #expect(session.review(filters: [], interactive: false) == .pending)
      #expect(console.output.hasPrefix("6 pending snapshot failures in "), "\(console.output)")
      #expect(console.output.contains("testOther()"))
      #expect(!console.errors.contains("left out"))
      #expect(session.resolve(.accept, filters: ["testOther()"]) == .success, "\(console.errors)")
      #expect(contents(of: other.changed) == Data("other\nold\n".utf8))
      #expect(contents(of: fixture.reference("testOther.1.txt")) == Data("other\nnew\n".utf8))
    }
  }

  /// The built tool, run in the fixture's package with the artifacts folder from the
  /// environment, as `swift run snapshot-testing` would be.
  @Test func theToolSeesOnlyItsPackageUnlessAskedForAll() throws {
    try ReviewFixture.with { fixture in
      let other = try OtherPackage(beside: fixture)
      let otherFiles = other.artifacts(in: fixture)
      let tool = ExecutableTests()
      let environment = ["SNAPSHOT_ARTIFACTS": fixture.artifacts.path]

      let listed = try tool.run(["review", "--json"], in: fixture.root, environment: environment)
      #expect(try JSONValue.parse(listed.output)["failures"]?.array?.count == 4)
      #expect(listed.errors.contains("left out 2 pending failures of other packages"))
      let all = try tool.run(
        ["review", "--all-packages"], in: fixture.root, environment: environment)
      #expect(all.output.hasPrefix("6 pending snapshot failures"), "\(all.output)")
      #expect(all.output.contains("--all-packages"), "the suggested commands keep the flag")

      let rejected = try tool.run(["reject", "--all"], in: fixture.root, environment: environment)
      #expect(rejected.status == 0, "\(rejected.errors)")
      #expect(rejected.output.hasSuffix("Rejected 4.\n"), "\(rejected.output)")
      for file in otherFiles {
        #expect(FileManager.default.fileExists(atPath: file.path), "deleted \(file.path)")
      }
    }
  }

  /// Inline snapshots: each package's records name its own test file (both at
  /// `Tests/AppTests/GreetingTests.swift`); the tool in one never rewrites or deletes the other's.
  @Test func inlineFailuresBelongToThePackageOfTheirTestFile() throws {
    try InlineAcceptTests.withFolder { base in
      let artifacts = base.appendingPathComponent("artifacts")
      let environment: RunEnvironment = [.continuousIntegration: "true", .artifacts: artifacts.path]
      let app = try InlineAcceptTests.PackageCopy(in: base, named: "App")
      let other = try InlineAcceptTests.PackageCopy(in: base, named: "Other")
      app.runTest(environment: environment)
      other.runTest(environment: environment)
      let all = PendingFailures.load(
        artifactsRoots: [artifacts], packageRoot: app.root, includingOtherPackages: true)
      #expect(all.failures.count == 2, "one record per call: the first package's kept")

      let console = ScriptedConsole()
      let session = InlineAcceptTests.session([artifacts], root: app.root, console: console)
      let stored = try FileManager.default.contentsOfDirectory(
        atPath: ArtifactsFolder(root: artifacts).failureRecordsFolder.path)
      #expect(stored.count == 4, "\(stored)")
      #expect(session.resolve(.reject, filters: []) == .success, "\(console.errors)")
      #expect(console.output.hasSuffix("Rejected 2.\n"), "\(console.output)")
      #expect(console.errors.contains("left out 2 pending failures of other packages"))

      let otherConsole = ScriptedConsole()
      let theirs = InlineAcceptTests.session([artifacts], root: other.root, console: otherConsole)
      #expect(theirs.resolve(.accept, filters: ["GreetingTests.swift:5"]) == .success,
        "\(otherConsole.errors)")
      #expect(try other.text().contains("Hello, Blob!"))
      #expect(try app.text() == InlineAcceptTests.source)
    }
  }
}
