import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import SnapshotReview

/// What `review` and `report` print: a file snapshot chosen by the `File.swift:line` its failure
/// printed, every failure's text bounded as the failure message is (and the place of the whole
/// named), and the commands suggested at the end: one failure's, unless a person at a terminal
/// listed several.
@Suite struct ReviewOutputTests {
  /// Fails a file snapshot asserted on line 40 of `Tests/AppTests/GreetingTests.swift`, a test
  /// file of the fixture's package, as a test there would.
  func failAtALine(_ fixture: ReviewFixture) throws {
    try fixture.write(
      Data("// the test\n".utf8),
      to: fixture.root.appendingPathComponent("Tests/AppTests/GreetingTests.swift"))
    try fixture.write(Data("located\n".utf8), to: fixture.reference("testLocated.1.txt"))
    RunEnvironment.withOverride(fixture.environment) {
      _ = verifySnapshot(
        of: "located, changed\n", as: .lines, record: .never,
        snapshotDirectory: fixture.snapshots.path, file: "Tests/AppTests/GreetingTests.swift",
        testName: "testLocated()", line: 40)
    }
  }

  @Test(arguments: [
    "Tests/AppTests/GreetingTests.swift:40", "GreetingTests.swift:40", "GreetingTests.swift:40:9",
  ])
  func aFileSnapshotIsChosenByTheLocationItsFailurePrinted(location: String) throws {
    try ReviewFixture.with { fixture in
      try failAtALine(fixture)
      let (session, console) = fixture.session()

      #expect(session.resolve(.accept, filters: [location]) == .success, "\(console.errors)")

      #expect(console.output == "Accepted \(fixture.relative("testLocated.1.txt"))\nAccepted 1.\n")
      #expect(contents(of: fixture.reference("testLocated.1.txt")) == Data("located, changed\n".utf8))
      #expect(
        contents(of: fixture.reference(ReviewFixture.greeting)) == Data("Hello\nWorld\n".utf8))
    }
  }

  @Test func anotherLineOrFileChoosesNothing() throws {
    try ReviewFixture.with { fixture in
      try failAtALine(fixture)
      for location in ["GreetingTests.swift:41", "OtherTests.swift:40", "Tests/GreetingTests.swift:40"] {
        let (session, console) = fixture.session()
        #expect(session.resolve(.accept, filters: [location]) == .noMatch, "\(location)")
        #expect(console.errors.contains("No pending failure matches \"\(location)\""))
      }
      #expect(contents(of: fixture.reference("testLocated.1.txt")) == Data("located\n".utf8))
    }
  }

  // MARK: - Bounds

  /// A one-line snapshot of 3 MB against a one-line reference: a diff of two 3 MB lines.
  func failHuge(_ fixture: ReviewFixture) throws -> String {
    let huge = String(repeating: "0123456789", count: 300_000)
    try fixture.write(Data("small\n".utf8), to: fixture.reference("testHuge.1.txt"))
    fixture.verify(huge + "\n", as: .lines, testName: "testHuge()")
    fixture.verify(huge, as: .lines, testName: "testHugeFresh()")
    let long = (1...700).map { "line \($0)" }.joined(separator: "\n")
    try fixture.write(Data("line 0\n".utf8), to: fixture.reference("testLong.1.txt"))
    fixture.verify(long + "\n", as: .lines, testName: "testLong()")
    return huge
  }

  @Test func reviewBoundsEachFailureAsTheFailureMessageDoesAndSaysWhereTheWholeIs() throws {
    try ReviewFixture.with { fixture in
      let huge = try failHuge(fixture)
      let (session, console) = fixture.session()

      #expect(session.review(filters: ["testHuge"], interactive: false) == .pending)

      let output = console.output
      #expect(output.utf8.count < 20_000, "\(output.utf8.count) bytes printed")
      #expect(!output.contains(String(huge.prefix(DifferenceExcerpt.maximumLineBytes + 10))))
      let patch = "Tests/AppTests/GreetingTests/testHuge.1.difference.patch"
      #expect(output.contains(#"left out; the whole difference is in ""#), "\(output)")
      #expect(output.contains(#"\#(patch)"]"#), "\(output)")
      #expect(output.contains("the ends of 1 long line"), "\(output)")
      // The new snapshot of a missing reference: its one line is cut too.
      #expect(output.contains(#"is in "\#(fixture.artifacts.path)/Tests/AppTests/GreetingTests/testHugeFresh.1.txt"]"#),
        "\(output)")

      let (long, longConsole) = fixture.session()
      _ = long.review(filters: ["testLong"], interactive: false)
      #expect(longConsole.output.contains("+line 400\n"))
      #expect(!longConsole.output.contains("+line 600\n"), "more than 500 lines were printed")
      #expect(longConsole.output.contains("more lines left out; the whole difference is in"))
    }
  }

  @Test func theReportBoundsEachFailureToo() throws {
    try ReviewFixture.with { fixture in
      let huge = try failHuge(fixture)
      let (session, _) = fixture.session()
      let page = fixture.artifacts.appendingPathComponent("report.html")

      #expect(session.report(to: page, filters: ["testHuge", "testLong"]) == .success)

      let html = try String(contentsOf: page, encoding: .utf8)
      let base = HTMLReport(failures: [], hints: session.hints, artifactsRoot: fixture.artifacts)
        .render().utf8.count
      // The huge lines appear twice each (unified and side by side) when not cut.
      #expect(html.utf8.count - base < 200_000, "\(html.utf8.count - base) bytes of failures")
      #expect(!html.contains(String(huge.prefix(DifferenceExcerpt.maximumLineBytes + 10))))
      #expect(html.contains("<p class=\"omitted\">[… the ends of 1 long line"), "no note")
      #expect(html.contains("testHuge.1.difference.patch&quot;]</p>") || html.contains("testHuge.1.difference.patch\"]</p>"))
      #expect(html.contains("more lines left out; the whole difference is in"))
      #expect(!html.contains(">+line 600<"))
    }
  }

  // MARK: - Suggested commands

  @Test func withoutATerminalTheListEndsWithOneFailuresCommandsNeverAll() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = fixture.session()
      #expect(session.review(filters: [], interactive: false) == .pending)
      #expect(!console.output.contains("--all"), "\(console.output)")
      #expect(console.output.hasSuffix(
        """
        Resolve them one at a time: accept one with the command under it, or discard it with \
        reject and the same name, as in:
          swift run snapshot-testing reject \(fixture.relative(ReviewFixture.greeting))

        """), "\(console.output)")
    }
  }

  @Test func oneSelectedFailureGetsItsOwnCommandsEvenAtATerminal() throws {
    try ReviewFixture.with { fixture in
      var (session, console) = fixture.session()
      session.hasTerminal = true
      let reference = fixture.relative(ReviewFixture.greeting)
      #expect(session.review(filters: [reference], interactive: false) == .pending)
      #expect(!console.output.contains("--all"), "\(console.output)")
      #expect(console.output.hasSuffix(
        """
        Accept it with:  swift run snapshot-testing accept \(reference)
        Discard it with: swift run snapshot-testing reject \(reference)

        """), "\(console.output)")

      // Several chosen by a filter: still one at a time.
      let (filtered, filteredConsole) = fixture.session()
      var atTerminal = filtered
      atTerminal.hasTerminal = true
      _ = atTerminal.review(filters: ["txt"], interactive: false)
      #expect(!filteredConsole.output.contains("--all"), "\(filteredConsole.output)")

      // A person listing everything at a terminal (`review --list`) is offered both.
      var (all, allConsole) = fixture.session()
      all.hasTerminal = true
      _ = all.review(filters: [], interactive: false)
      #expect(allConsole.output.contains("Accept all of them with:  swift run snapshot-testing accept --all\n"))
    }
  }

  @Test func theReportOffersAcceptAllOnlyToAPersonForEverything() throws {
    try ReviewFixture.with { fixture in
      let page = fixture.artifacts.appendingPathComponent("report.html")
      var (session, _) = fixture.session()
      #expect(session.report(to: page, filters: []) == .success)
      let withoutTerminal = try String(contentsOf: page, encoding: .utf8)
      #expect(!withoutTerminal.contains("accept --all"))
      session.hasTerminal = true
      #expect(session.report(to: page, filters: [fixture.relative(ReviewFixture.greeting)]) == .success)
      let chosen = try String(contentsOf: page, encoding: .utf8)
      #expect(!chosen.contains("accept --all"))
      #expect(session.report(to: page, filters: []) == .success)
      let everything = try String(contentsOf: page, encoding: .utf8)
      #expect(everything.contains("accept --all"))
    }
  }

  /// The commands printed carry `--artifacts` when `SNAPSHOT_ARTIFACTS` named the folder: the
  /// shell they are pasted into may not have the variable.
  @Test func theEnvironmentsArtifactsFolderIsSpelledOutInTheCommands() {
    let root = URL(fileURLWithPath: "/work/App")
    let hints = CommandHints.forOptions(
      artifacts: [], root: nil, allPackages: false, packageRoot: root,
      environment: [.artifacts: "/tmp/run artifacts"])
    #expect(hints.command("accept", ["x"]) == "swift run snapshot-testing accept --artifacts '/tmp/run artifacts' x")
    let given = CommandHints.forOptions(
      artifacts: ["ci"], root: "/work/App", allPackages: true, packageRoot: root,
      environment: [.artifacts: "/tmp/run artifacts"])
    #expect(given.command("reject", ["x"]) == "swift run snapshot-testing reject --artifacts ci --root /work/App --all-packages x")
    let unset = CommandHints.forOptions(
      artifacts: [], root: nil, allPackages: false, packageRoot: root, environment: [:])
    #expect(unset.command("accept", ["x"]) == "swift run snapshot-testing accept x")
  }
}
