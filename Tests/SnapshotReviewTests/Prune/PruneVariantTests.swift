import Foundation
import RunRecord
import SnapshotTesting
import TestSupport
import Testing

@testable import SnapshotReview

/// Prune keeps the references of variants the run could not have produced; review and accept
/// work with variant file names.
@Suite struct PruneVariantTests {
  @Test func aRunWithoutVariantsKeepsEveryVariantsReferences() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      try fixture.write(Data("mac".utf8), to: fixture.reference("testBadge.1.macos.png"))
      try fixture.write(Data("arm".utf8), to: fixture.reference("testBadge.1.macos-arm64.png"))
      try fixture.write(Data("fr".utf8), to: fixture.reference("testGreeting.1.fr_FR.txt"))
      try fixture.write(Data("raw".utf8), to: fixture.reference("testRaw.1.linux"))
      var expected = fixture.packageFiles()
      expected["Tests/AppTests/__Snapshots__/GreetingTests/testRenamed.1.txt"] = nil
      expected["Tests/AppTests/__Snapshots__/OldTests/testDeleted.1.png"] = nil
      let (session, console) = fixture.session()
      #expect(session.prune(usageFolders: [fixture.usage], delete: true) == .success)
      #expect(
        console.output.hasPrefix(
          """
          4 reference files of other variants kept (this run used no variant):
            \(fixture.relative("testBadge.1.macos-arm64.png")) (kept: another variant, "macos-arm64")
            \(fixture.relative("testBadge.1.macos.png")) (kept: another variant, "macos")
            \(fixture.relative("testGreeting.1.fr_FR.txt")) (kept: another variant, "fr_FR")
            \(fixture.relative("testRaw.1.linux")) (kept: another variant, "linux")

          2 unreferenced snapshot files (of 10 under __Snapshots__ folders):
          """
        ),
        "\(console.output)"
      )
      #expect(console.output.hasSuffix("Deleted 2 files.\n"))
      #expect(fixture.packageFiles() == expected)
    }
  }

  @Test func aRunsOwnVariantIsPrunedAndOthersAreKept() throws {
    try ReviewFixture.with { fixture in
      try fixture.write(Data("old".utf8), to: fixture.reference("testOld.1.fr_FR.txt"))
      try fixture.write(Data("de".utf8), to: fixture.reference("testStable.1.de_DE.txt"))
      try fixture.write(Data("steady\n".utf8), to: fixture.reference("testStable.s.fr_FR.txt"))
      withSnapshotTesting(variant: .custom("fr_FR")) {
        #expect(fixture.verify("steady\n", as: .lines, named: "s", testName: "testStable()") == nil)
      }
      try fixture.setLoggedProcesses()
      let (session, console) = fixture.session()
      #expect(session.prune(usageFolders: [fixture.usage], delete: false) == .pending)
      #expect(
        console.output.hasPrefix(
          """
          1 reference file of other variants kept (this run used "fr_FR"):
            \(fixture.relative("testStable.1.de_DE.txt")) (kept: another variant, "de_DE")

          3 unreferenced snapshot files (of 9 under __Snapshots__ folders):
            \(fixture.relative("testOld.1.fr_FR.txt"))
            \(fixture.relative("testRenamed.1.txt"))
          """
        ),
        "\(console.output)"
      )
    }
  }

  /// The Variants article's example: a Linux run keeps a chart's macOS reference.
  @Test func theVariantsArticleShowsWhatPruneKeeps() throws {
    let shown = try codeBlock(
      in: "Sources/SnapshotTesting/Documentation.docc/Variants.md",
      after: "whose name carries another variant is kept and listed as such:")
    try ReviewFixture.with { fixture in
      let chart = fixture.reference("x").deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ChartTests/testBars.1.macos.png")
      try fixture.write(Data("mac".utf8), to: chart)
      try fixture.write(Data("steady\n".utf8), to: fixture.reference("testStable.s.linux.txt"))
      withSnapshotTesting(variant: .operatingSystem) {
        #expect(fixture.verify("steady\n", as: .lines, named: "s", testName: "testStable()") == nil)
      }
      try fixture.setLoggedProcesses()
      let (session, console) = fixture.session()
      #expect(session.prune(usageFolders: [fixture.usage], delete: false) == .pending)
      #expect(console.output.hasPrefix(shown + "\n\n"), "\(console.output)")
    }
  }

  @Test func keptVariantsAloneLeaveNothingToDo() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      let (session, _) = fixture.session()
      #expect(session.prune(usageFolders: [fixture.usage], delete: true) == .success)
      try fixture.write(Data("mac".utf8), to: fixture.reference("testBadge.1.macos.png"))
      let (again, console) = fixture.session()
      #expect(again.prune(usageFolders: [fixture.usage], delete: true) == .success)
      #expect(
        console.output == """
          1 reference file of other variants kept (this run used no variant):
            \(fixture.relative("testBadge.1.macos.png")) (kept: another variant, "macos")
          All 4 other reference files under __Snapshots__ folders are used.

          """
      )
      #expect(
        FileManager.default.fileExists(atPath: fixture.reference("testBadge.1.macos.png").path)
      )
    }
  }

  @Test(arguments: [
    ("testBars.1.png", nil, [String]()),
    ("testBars.1", nil, []),
    ("testBars.1.macos.png", "macos", []),
    ("testBars.1.linux-x86_64.png", "linux-x86_64", []),
    ("testBars.name.fr_FR.txt", "fr_FR", []),
    ("testBars.1.linux", "linux", []),
    ("testBars.1.fr_FR", nil, []),
    ("testBars.1.fr_FR", "fr_FR", ["fr_FR"]),
    ("testBars.1..txt", nil, []),
  ])
  func variantInAFileName(_ name: String, _ variant: String?, _ known: [String]) {
    #expect(ReferenceName.variant(in: name, knownVariants: Set(known)) == variant)
  }

  @Test func acceptingAVariantsFailureWritesTheVariantsReference() throws {
    try ReviewFixture.with { fixture in
      try fixture.write(Data("bonjour\n".utf8), to: fixture.reference("testHello.1.fr_FR.txt"))
      try fixture.write(Data("hello\n".utf8), to: fixture.reference("testHello.1.txt"))
      let message = withSnapshotTesting(variant: .custom("fr_FR")) {
        fixture.verify("salut\n", as: .lines, testName: "testHello()")
      }
      #expect(message?.contains("testHello.1.fr_FR.txt") == true)
      let (session, console) = fixture.session()
      #expect(session.review(filters: ["testHello"], interactive: false) == .pending)
      #expect(
        console.output.contains("  reference: \(fixture.relative("testHello.1.fr_FR.txt"))\n"),
        "\(console.output)"
      )
      #expect(session.resolve(.accept, filters: ["testHello"]) == .success)
      #expect(contents(of: fixture.reference("testHello.1.fr_FR.txt")) == Data("salut\n".utf8))
      #expect(contents(of: fixture.reference("testHello.1.txt")) == Data("hello\n".utf8))
    }
  }
}
