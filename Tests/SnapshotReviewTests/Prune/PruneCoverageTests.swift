import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// Prune after a split run: `swift test --parallel` workers, CI shards made with `--filter` and
/// `--skip`, and the ways such a run can be incomplete or inconsistent.
@Suite struct PruneCoverageTests {
  static let binary = "/pkg/.build/debug/AppPackageTests.xctest"
  /// The fixture package's tests, as `swift test list` prints them (with SwiftPM's progress
  /// lines, which are not tests).
  static let testList = """
    Building for debugging...
    [1/1] Write swift-version.txt
    Build complete! (0.21s)
    AppTests.GreetingTests/testFarewell
    AppTests.GreetingTests/testGreeting
    AppTests.GreetingTests/testStable
    AppTests.BadgeSuite/badge()
    AppTests.fresh()

    """

  /// The worker processes of `swift test --parallel`: one XCTest process per test, and one Swift
  /// Testing process for all of Swift Testing.
  static let parallelRun: [[String]] = [
    [binary, "AppTests.GreetingTests/testFarewell"],
    [binary, "AppTests.GreetingTests/testGreeting"],
    [binary, "AppTests.GreetingTests/testStable"],
    [binary, "--parallel", "--testing-library", "swift-testing"],
  ]

  func writeTestList(_ fixture: ReviewFixture, _ text: String = testList) throws -> URL {
    let url = fixture.root.deletingLastPathComponent().appendingPathComponent("tests.txt")
    try Data(text.utf8).write(to: url)
    return url
  }

  func prune(
    _ fixture: ReviewFixture,
    _ folders: [URL]? = nil,
    delete: Bool = false
  ) throws -> (ToolExitCode, ScriptedConsole) {
    let (session, console) = fixture.session()
    let status = session.prune(
      usageFolders: folders ?? [fixture.usage],
      testList: .file(try writeTestList(fixture)),
      delete: delete
    )
    return (status, console)
  }

  func shard(_ fixture: ReviewFixture, _ name: String) -> URL {
    fixture.root.deletingLastPathComponent().appendingPathComponent(name)
  }

  @Test func theWorkersOfAParallelRunTogetherRanEveryTest() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses(Self.parallelRun)
      let (status, console) = try prune(fixture, delete: true)
      #expect(status == .success)
      #expect(console.errors.isEmpty)
      #expect(console.output.hasSuffix("Deleted 2 files.\n"))
      #expect(
        !FileManager.default.fileExists(atPath: fixture.reference(ReviewFixture.staleText).path)
      )
    }
  }

  @Test func aWorkerThatCrashedIsNamedAndNothingIsDeleted() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses(Self.parallelRun)
      try FileManager.default.removeItem(
        at: fixture.usage.appendingPathComponent("finished-1-fixture")
      )
      let before = fixture.packageFiles()
      let (status, console) = try prune(fixture, delete: true)
      #expect(status == .refused)
      #expect(
        console.errors == """
          Refusing to prune: 1 test process of the run did not finish (crashed or killed), so the \
          references of the tests it was running would look unused. Unfinished:
            AppTests.GreetingTests/testGreeting (in "\(fixture.usage.path)")
          Fix the crash and run the tests again.

          """
      )
      #expect(fixture.packageFiles() == before)
    }
  }

  @Test func aWorkerThatLeftNoLogMakesItsTestMissing() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses(Self.parallelRun.filter { !$0[1].hasSuffix("testStable") })
      let (status, console) = try prune(fixture, delete: true)
      #expect(status == .refused)
      #expect(
        console.errors.hasPrefix(
          """
          Refusing to prune: no test process of the run ran 1 of the package's 5 tests, so their \
          references would look unused:
            AppTests.GreetingTests/testStable
          Run them in some shard
          """
        )
      )
    }
  }

  @Test func shardsSplitWithFilterAndSkipTogetherRanEveryTest() throws {
    try ReviewFixture.with { fixture in
      let (shardA, shardB) = (shard(fixture, "shard-a"), shard(fixture, "shard-b"))
      let used = [ReviewFixture.greeting, ReviewFixture.farewell, ReviewFixture.stable]
      try PruneShardsTests().writeLog(
        in: shardA,
        references: used.map(fixture.reference),
        processes: [
          [Self.binary, "AppTests.GreetingTests/testFarewell,AppTests.GreetingTests/testGreeting"],
          [Self.binary, "--filter", "Greeting", "--testing-library", "swift-testing"],
        ]
      )
      try PruneShardsTests().writeLog(
        in: shardB,
        references: [fixture.reference(ReviewFixture.badge)],
        processes: [
          [Self.binary, "AppTests.GreetingTests/testStable"],
          [Self.binary, "--skip", "Greeting", "--testing-library", "swift-testing"],
        ]
      )
      let (alone, aloneConsole) = try prune(fixture, [shardA])
      #expect(alone == .refused)
      #expect(aloneConsole.errors.contains("ran 3 of the package's 5 tests"))
      #expect(aloneConsole.errors.contains("  AppTests.BadgeSuite/badge()\n"))

      let (status, console) = try prune(fixture, [shardA, shardB])
      #expect(status == .pending)
      #expect(console.output.hasPrefix("2 unreferenced snapshot files (of 6"))
      #expect(console.output.contains("--usage \(shardA.path) --usage \(shardB.path) --test-list "))
    }
  }

  @Test func shardsThatMissTestsAreRefusedNamingThem() throws {
    try ReviewFixture.with { fixture in
      let (shardA, shardB) = (shard(fixture, "shard-a"), shard(fixture, "shard-b"))
      try PruneShardsTests().writeLog(
        in: shardA,
        references: [fixture.reference(ReviewFixture.greeting)],
        processes: [[Self.binary, "AppTests.GreetingTests/testGreeting"]]
      )
      try PruneShardsTests().writeLog(
        in: shardB,
        references: [fixture.reference(ReviewFixture.badge)],
        processes: [[Self.binary, "--filter", "badge", "--testing-library", "swift-testing"]]
      )
      let before = fixture.packageFiles()
      let (status, console) = try prune(fixture, [shardA, shardB], delete: true)
      #expect(status == .refused)
      #expect(
        console.errors.hasPrefix(
          """
          Refusing to prune: no test process of the runs (2 usage folders) ran 3 of the package's \
          5 tests, so their references would look unused:
            AppTests.GreetingTests/testFarewell
            AppTests.GreetingTests/testStable
            AppTests.fresh()
          Run them in some shard (check the shards' --filter and --skip), or run every test.
          """
        )
      )
      #expect(fixture.packageFiles() == before)
    }
  }

  @Test func twoShardsThatRanOneTestWithDifferentReferencesAreRefused() throws {
    try ReviewFixture.with { fixture in
      let (shardA, shardB) = (shard(fixture, "shard-a"), shard(fixture, "shard-b"))
      let extra = fixture.reference("testGreeting.2.txt")
      try fixture.write(Data("again\n".utf8), to: extra)
      try PruneShardsTests().writeLog(
        in: shardA,
        references: [fixture.reference(ReviewFixture.greeting), extra]
      )
      try PruneShardsTests().writeLog(
        in: shardB,
        references: [fixture.reference(ReviewFixture.greeting)]
      )
      let (status, console) = try prune(fixture, [shardA, shardB], delete: true)
      #expect(status == .refused)
      #expect(
        console.errors.hasPrefix(
          """
          Refusing to prune: the usage logs "\(shardA.path)" and "\(shardB.path)" both ran \
          testGreeting (references in "\(standardizedPath(fixture.snapshots.path))") but it used \
          different references:
            shard-a: testGreeting.1.txt, testGreeting.2.txt
            shard-b: testGreeting.1.txt
          """
        )
      )
      #expect(FileManager.default.fileExists(atPath: extra.path))

      // Runs on two platforms use different variants: that is not a disagreement.
      try PruneShardsTests().writeLog(
        in: shardB,
        references: [fixture.reference(ReviewFixture.greeting)],
        variants: ["macos"]
      )
      let (platforms, _) = try prune(fixture, [shardA, shardB])
      #expect(platforms == .pending)
    }
  }

  @Test func logsOfDifferentCommitsAreRefusedNamingThem() throws {
    try ReviewFixture.with { fixture in
      let (shardA, shardB) = (shard(fixture, "shard-a"), shard(fixture, "shard-b"))
      let (first, second) = (String(repeating: "a", count: 40), String(repeating: "b", count: 40))
      try PruneShardsTests().writeLog(
        in: shardA,
        references: [fixture.reference(ReviewFixture.greeting)],
        revision: first
      )
      try PruneShardsTests().writeLog(
        in: shardB,
        references: [fixture.reference(ReviewFixture.badge)],
        revision: second
      )
      let (status, console) = try prune(fixture, [shardA, shardB], delete: true)
      #expect(status == .refused)
      #expect(
        console.errors == """
          Refusing to prune: the usage logs come from different commits of the package, whose \
          tests and references differ:
            \(first) in "\(shardA.path)"
            \(second) in "\(shardB.path)"
          Run every shard on the same commit.

          """
      )
    }
  }

  @Test func aLogOfAnotherCommitThanThePackagesIsRefused() throws {
    try ReviewFixture.with { fixture in
      let (logged, current) = (String(repeating: "1", count: 40), String(repeating: "2", count: 40))
      try fixture.write(
        Data("\(current)\n".utf8),
        to: fixture.root.appendingPathComponent(".git/HEAD")
      )
      try fixture.setLoggedProcesses(revision: logged)
      let (status, console) = try prune(fixture, delete: true)
      #expect(status == .refused)
      #expect(
        console.errors == """
          Refusing to prune: the usage log "\(fixture.usage.path)" comes from commit \(logged), \
          but "\(fixture.root.path)" is at commit \(current): tests or references may have \
          changed since. Run the tests again on this commit.

          """
      )
      try fixture.setLoggedProcesses(revision: current)
      #expect(try prune(fixture).0 == .pending)
    }
  }

  @Test func aShardFolderThatIsMissingOrHoldsNoLogIsNamed() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      let missing = shard(fixture, "shard-missing")
      let (status, console) = try prune(fixture, [fixture.usage, missing], delete: true)
      #expect(status == .refused)
      #expect(
        console.errors.hasPrefix(
          """
          Refusing to prune: the usage folder "\(missing.path)" does not exist. (A CI shard's \
          artifact that was not downloaded, or a run without SNAPSHOT_TESTING_USED_REFERENCES?)
          """
        )
      )

      let empty = shard(fixture, "shard-empty")
      try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
      let (emptyStatus, emptyConsole) = try prune(fixture, [fixture.usage, empty], delete: true)
      #expect(emptyStatus == .refused)
      #expect(
        emptyConsole.errors.hasPrefix(
          "Refusing to prune: \"\(empty.path)\" holds no usage log, so every reference would look unused."
        )
      )
    }
  }

  @Test func aListingProcessIsNotARun() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses([[Self.binary, "--list-tests"]])
      let (status, console) = try prune(fixture)
      #expect(status == .refused)
      #expect(console.errors.contains("holds no usage log"))
    }
  }

  @Test func anUnreadableOrEmptyTestListIsRefused() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses(Self.parallelRun)
      let (session, console) = fixture.session()
      let nowhere = fixture.root.appendingPathComponent("no-such-list.txt")
      #expect(
        session.prune(usageFolders: [fixture.usage], testList: .file(nowhere), delete: true)
          == .refused
      )
      #expect(console.errors.hasPrefix("Refusing to prune: the test list \"\(nowhere.path)\" could not be read"))

      let (again, emptyConsole) = fixture.session()
      let empty = try writeTestList(fixture, "Build complete! (0.1s)\n")
      #expect(again.prune(usageFolders: [fixture.usage], testList: .file(empty), delete: true) == .refused)
      #expect(emptyConsole.errors.hasPrefix("Refusing to prune: the test list \"\(empty.path)\" names no test."))
    }
  }
}

/// How a test process's arguments are read, and Swift Testing's filters evaluated so that a test
/// counts as run only when it surely ran.
@Suite struct TestSelectionTests {
  @Test func argumentsAsSwiftTestGivesThem() {
    let binary = PruneCoverageTests.binary
    #expect(TestSelection(arguments: [binary]) == .allXCTest)
    #expect(TestSelection(arguments: [binary, "M.A/t1,M.B/t2"]) == .xctest(["M.A/t1", "M.B/t2"]))
    #expect(
      TestSelection(arguments: [binary, "--parallel", "--testing-library", "swift-testing"])
        == .swiftTesting(filters: [], skips: [])
    )
    #expect(
      TestSelection(arguments: [
        binary, "--filter", "A", "--skip=B", "--filter=C", "--testing-library", "swift-testing",
      ]) == .swiftTesting(filters: ["A", "C"], skips: ["B"])
    )
    #expect(TestSelection(arguments: [binary, "--list-tests"]) == .listing)
    #expect(TestSelection(arguments: [binary, "-s", "M.A"]) == .unknown)
    #expect(TestSelection(arguments: [binary, "--testing-library", "xctest"]) == .unknown)
  }

  @Test func xctestSpecifiersCoverTheirTestsClassesAndModules() {
    let selection = TestSelection.xctest(["M.A/testOne", "M.B", "N"])
    #expect(selection.ran("M.A/testOne"))
    #expect(!selection.ran("M.A/testOneMore"))
    #expect(selection.ran("M.B/testTwo"))
    #expect(!selection.ran("M.BB/testTwo"))
    #expect(selection.ran("N.C/testThree"))
    #expect(!selection.ran("N.C/three()"), "a Swift Testing test never runs in XCTest")
  }

  @Test(arguments: [
    // (filters, skips, test, proven to have run)
    ([], [], "M.S/four()", true),
    (["STests"], [], "M.STests/four()", true),
    (["four"], [], "M.S/fourteen()", true),
    (["five"], [], "M.S/four()", false),
    // Anchored at the end of the name: Swift Testing sees the location after it.
    (["four\\(\\)$"], [], "M.S/four()", false),
    // Matches only a location: this tool cannot tell.
    (["four\\(\\)/"], [], "M.S/four()", false),
    (["[invalid"], [], "M.S/four()", false),
    ([], ["STests"], "M.STests/four()", false),
    ([], ["STests$"], "M.STests/four()", false),
    ([], ["^M$"], "M.STests/four()", false),
    ([], ["Other"], "M.STests/four()", true),
    ([], ["T\\.swift:17"], "M.STests/four()", false),
    ([], ["\\.swift"], "M.STests/four()", false),
    ([], ["[invalid"], "M.STests/four()", false),
    (["STests"], ["four"], "M.STests/four()", false),
  ] as [([String], [String], String, Bool)])
  func swiftTestingFiltersErOnTheSideOfKeeping(
    filters: [String],
    skips: [String],
    test: String,
    proven: Bool
  ) {
    let selection = TestSelection.swiftTesting(filters: filters, skips: skips)
    #expect(selection.ran(test) == proven)
    #expect(!selection.ran("M.XCTestCase/testFour"), "an XCTest test never runs in Swift Testing")
  }

  @Test func containersOfATestAreItsModuleAndSuites() {
    #expect(
      SwiftTestingFilter.containers(of: "M.Outer/Inner/test()")
        == ["M", "M.Outer", "M.Outer/Inner"]
    )
    #expect(SwiftTestingFilter.containers(of: "M.free()") == ["M"])
  }
}
