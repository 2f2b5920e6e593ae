import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import SnapshotReview

@Suite struct ReviewSessionTests {
  func session(_ fixture: ReviewFixture, answers: [String] = []) -> (ReviewSession, ScriptedConsole)
  {
    fixture.session(answers: answers)
  }

  func pending(_ fixture: ReviewFixture) -> [PendingFailure] {
    PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: fixture.root).failures
  }

  @Test func theFixtureHasFourPendingFailures() throws {
    try ReviewFixture.with { fixture in
      let failures = pending(fixture)
      #expect(
        failures.map(\.record.testName).sorted()
          == ["testBadge()", "testFarewell()", "testFresh()", "testGreeting()"]
      )
      let badge = try #require(failures.first { $0.record.testName == "testBadge()" })
      #expect(badge.isImage)
      #expect(badge.file(.differenceImage) != nil)
      #expect(badge.file(.reference) != nil)
    }
  }

  @Test func nonInteractiveReviewListsDiffsAndExitsPending() throws {
    try ReviewFixture.with { fixture in
      let before = fixture.packageFiles()
      let (session, console) = session(fixture)
      #expect(session.review(filters: [], interactive: false) == .pending)
      let output = console.output
      #expect(output.hasPrefix("4 pending snapshot failures in \(fixture.artifacts.path):\n"))
      #expect(output.contains("testGreeting() — Snapshot does not match reference.\n"))
      #expect(output.contains("  test:      "))
      #expect(output.contains("  reference: \(fixture.relative(ReviewFixture.greeting))\n"))
      #expect(output.contains("    −World\n    +there\n"))
      #expect(output.contains("  reference: \(fixture.relative(ReviewFixture.fresh)) (missing)\n"))
      #expect(output.contains("    +brand new\n    +snapshot\n"))
      #expect(output.contains("Newly-taken snapshot does not match reference."))
      #expect(output.contains("testBadge.1.difference.png"))
      #expect(
        output.contains(
          "  accept: swift run snapshot-testing accept \(fixture.relative(ReviewFixture.badge))\n"
        )
      )
      // No terminal: one failure at a time, never --all.
      #expect(output.contains("Resolve them one at a time:"))
      #expect(!output.contains("--all"))
      #expect(console.errors.isEmpty)
      #expect(fixture.packageFiles() == before)
      #expect(pending(fixture).count == 4)
    }
  }

  @Test func reviewWithAFilterShowsOnlyMatches() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = session(fixture)
      #expect(session.review(filters: ["farewell"], interactive: false) == .pending)
      #expect(console.output.hasPrefix("1 pending snapshot failure in"))
      #expect(console.output.contains("testFarewell()"))
      #expect(!console.output.contains("testGreeting()"))
    }
  }

  @Test func acceptingByPathWritesTheFailedSnapshotOverTheReference() throws {
    try ReviewFixture.with { fixture in
      let failure = try #require(pending(fixture).first { $0.record.testName == "testGreeting()" })
      let newBytes = try #require(contents(of: failure.failedSnapshotURL))
      let (session, console) = session(fixture)

      #expect(
        session.resolve(.accept, filters: [fixture.relative(ReviewFixture.greeting)]) == .success
      )
      #expect(
        console.output == "Accepted \(fixture.relative(ReviewFixture.greeting))\nAccepted 1.\n"
      )
      #expect(contents(of: fixture.reference(ReviewFixture.greeting)) == newBytes)
      for url in failure.artifactURLs { #expect(!FileManager.default.fileExists(atPath: url.path)) }
      #expect(pending(fixture).count == 3)
      // No temporary file is left beside it.
      let names = try FileManager.default.contentsOfDirectory(atPath: fixture.snapshots.path)
      #expect(!names.contains { $0.hasSuffix(".tmp") })
    }
  }

  @Test func acceptingAllWritesEveryReferenceIncludingMissingAndImages() throws {
    try ReviewFixture.with { fixture in
      let failures = pending(fixture)
      let expected = try failures.map {
        ($0.referenceURL, try #require(contents(of: $0.failedSnapshotURL)))
      }
      let (session, console) = session(fixture)
      #expect(session.resolve(.accept, filters: []) == .success)
      #expect(console.output.hasSuffix("Accepted 4.\n"))
      for (reference, bytes) in expected {
        let url = try #require(reference)
        #expect(contents(of: url) == bytes, "\(url.path)")
      }
      #expect(pending(fixture).isEmpty)
    }
  }

  @Test func rejectingRemovesArtifactsAndKeepsReferences() throws {
    try ReviewFixture.with { fixture in
      let before = fixture.packageFiles()
      let badge = try #require(pending(fixture).first { $0.record.testName == "testBadge()" })
      let (session, console) = session(fixture)
      #expect(session.resolve(.reject, filters: ["testBadge"]) == .success)
      #expect(console.output == "Rejected \(fixture.relative(ReviewFixture.badge))\nRejected 1.\n")
      #expect(fixture.packageFiles() == before)
      for url in badge.artifactURLs { #expect(!FileManager.default.fileExists(atPath: url.path)) }
      #expect(pending(fixture).count == 3)
    }
  }

  @Test func aFilterThatMatchesNothingChangesNothingAndSaysSo() throws {
    try ReviewFixture.with { fixture in
      let before = fixture.packageFiles()
      let (session, console) = session(fixture)
      #expect(session.resolve(.accept, filters: ["testNoSuchThing"]) == .noMatch)
      #expect(
        console.errors == """
          No pending failure matches "testNoSuchThing". 4 failures pending; list them with: \
          swift run snapshot-testing review

          """
      )
      #expect(fixture.packageFiles() == before)
      #expect(pending(fixture).count == 4)
    }
  }

  @Test func aFailedSnapshotThatIsGoneFailsThatOneAndKeepsItsRecord() throws {
    try ReviewFixture.with { fixture in
      let greeting = try #require(pending(fixture).first { $0.record.testName == "testGreeting()" })
      try FileManager.default.removeItem(at: greeting.failedSnapshotURL)
      let (session, console) = session(fixture)
      #expect(session.resolve(.accept, filters: ["testGreeting", "testFarewell"]) == .failure)
      #expect(
        console.errors == """
          error: Cannot accept "testGreeting()": the new snapshot "\(greeting.failedSnapshotURL.path)" \
          could not be read (No such file or directory). Re-run the test to produce it again.

          """
      )
      #expect(console.output.hasSuffix("Accepted 1, 1 could not be resolved.\n"))
      #expect(
        contents(of: fixture.reference(ReviewFixture.greeting)) == Data("Hello\nWorld\n".utf8)
      )
      #expect(
        pending(fixture).map(\.record.testName).sorted()
          == ["testBadge()", "testFresh()", "testGreeting()"]
      )
    }
  }

  @Test func interactiveReviewCarriesOutEachAnswer() throws {
    try ReviewFixture.with { fixture in
      let order = pending(fixture).map(\.record.testName)
      // accept the first, reject the second, an invalid answer then skip the third, quit.
      let (session, console) = session(fixture, answers: ["a", "r", "x", "s", "q"])
      #expect(session.review(filters: [], interactive: true) == .pending)
      #expect(console.output.contains("Answer a, r, s, A or q.\n"))
      #expect(console.output.hasSuffix("Accepted 1, rejected 1, skipped 2.\n"))
      #expect(pending(fixture).map(\.record.testName) == Array(order.suffix(2)))
    }
  }

  @Test func interactiveAcceptAllRemainingEndsWithNothingPending() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = session(fixture, answers: ["r", "A"])
      #expect(session.review(filters: [], interactive: true) == .success)
      #expect(console.output.hasSuffix("Accepted 3, rejected 1.\n"))
      #expect(pending(fixture).isEmpty)
    }
  }

  @Test func nothingPendingIsSuccess() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = session(fixture)
      #expect(session.resolve(.reject, filters: []) == .success)
      #expect(session.review(filters: [], interactive: false) == .success)
      #expect(
        console.output.hasSuffix("No pending snapshot failures in \(fixture.artifacts.path).\n")
      )
    }
  }

  @Test func artifactsDownloadedFromAnotherMachineAreFoundLocally() throws {
    try ReviewFixture.with { fixture in
      // Rewrite the records as a CI runner with another checkout and artifacts path wrote them.
      let ciRoot = "/home/runner/work/App/App"
      let ciArtifacts = "/home/runner/artifacts"
      let artifacts = ArtifactsFolder(root: fixture.artifacts)
      let folder = artifacts.failureRecordsFolder
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        let url = folder.appendingPathComponent(name)
        var record = try JSONDecoder().decode(FailureRecord.self, from: Data(contentsOf: url))
        func moved(_ path: String, from old: String, to new: String) -> String {
          new + path.dropFirst(old.count)
        }
        record.referencePath = moved(record.referencePath, from: fixture.root.path, to: ciRoot)
        record.testFilePath = ciRoot + "/Tests/AppTests/GreetingTests.swift"
        record.files = record.files.map {
          FailureRecord.File(
            role: $0.role,
            path: moved($0.path, from: fixture.artifacts.path, to: ciArtifacts)
          )
        }
        try FileManager.default.removeItem(at: url)
        try JSONEncoder().encode(record).write(
          to: artifacts.failureRecordURL(forReference: record.referencePath)
        )
      }
      try fixture.write(
        Data("// tests\n".utf8),
        to: fixture.root.appendingPathComponent("Tests/AppTests/GreetingTests.swift")
      )

      let failures = pending(fixture)
      #expect(failures.count == 4)
      for failure in failures {
        #expect(failure.referenceURL?.path.hasPrefix(fixture.root.path) == true)
        #expect(FileManager.default.fileExists(atPath: failure.failedSnapshotURL.path))
      }
      let greetingNew = try #require(
        failures.first { $0.record.testName == "testGreeting()" }.flatMap {
          contents(of: $0.failedSnapshotURL)
        }
      )
      let (session, _) = session(fixture)
      #expect(session.resolve(.accept, filters: []) == .success)
      #expect(contents(of: fixture.reference(ReviewFixture.greeting)) == greetingNew)
      #expect(FileManager.default.fileExists(atPath: fixture.reference(ReviewFixture.fresh).path))
      #expect(!FileManager.default.fileExists(atPath: ciRoot))
    }
  }
}
