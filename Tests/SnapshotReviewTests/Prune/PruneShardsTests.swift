import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// `prune --usage A --usage B`: the logs of several complete runs, merged.
@Suite struct PruneShardsTests {
  /// Writes a usage log as the test processes of a run would: the references they used, their
  /// arguments (a whole `swift test` run by default), and the variants they used.
  func writeLog(
    in folder: URL,
    references: [URL],
    variants: [String] = [],
    processes: [[String]] = PruneTests.fullRun,
    finished: Bool = true,
    revision: String? = nil
  ) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let paths = references.map { $0.path + "\n" }.joined()
    try Data(paths.utf8).write(to: folder.appendingPathComponent("references-1-a.txt"))
    for (index, arguments) in processes.enumerated() {
      var record: [String: Any] = ["arguments": arguments, "startedAt": 0]
      if let revision { record["revision"] = revision }
      try JSONSerialization.data(withJSONObject: record)
        .write(to: folder.appendingPathComponent("process-\(index)-a.json"))
      if finished {
        try Data().write(to: folder.appendingPathComponent("finished-\(index)-a"))
      }
    }
    if !variants.isEmpty {
      let text = variants.map { $0 + "\n" }.joined()
      try Data(text.utf8).write(to: folder.appendingPathComponent("variants-1-a.txt"))
    }
  }

  @Test func aFileIsUsedWhenAnyShardUsedIt() throws {
    try ReviewFixture.with { fixture in
      let shardA = fixture.usage.deletingLastPathComponent().appendingPathComponent("shard-a")
      let shardB = fixture.usage.deletingLastPathComponent().appendingPathComponent("shard-b")
      try fixture.write(Data("fr".utf8), to: fixture.reference("testGreeting.1.fr_FR.txt"))
      try writeLog(
        in: shardA,
        references: [ReviewFixture.greeting, ReviewFixture.farewell, ReviewFixture.stable]
          .map(fixture.reference)
      )
      try writeLog(
        in: shardB,
        references: [ReviewFixture.badge, ReviewFixture.staleText].map(fixture.reference),
        variants: ["fr_FR"]
      )

      let (alone, aloneConsole) = fixture.session()
      #expect(alone.prune(usageFolders: [shardA], delete: false) == .pending)
      #expect(
        aloneConsole.output.contains(
          "  \(fixture.relative("testGreeting.1.fr_FR.txt")) (kept: another variant, \"fr_FR\")"
        )
      )
      #expect(aloneConsole.output.contains("3 unreferenced snapshot files (of 7"))

      let (merged, console) = fixture.session()
      #expect(merged.prune(usageFolders: [shardA, shardB], delete: false) == .pending)
      #expect(
        console.output == """
          2 unreferenced snapshot files (of 7 under __Snapshots__ folders):
            \(fixture.relative("testGreeting.1.fr_FR.txt"))
            Tests/AppTests/__Snapshots__/OldTests/testDeleted.1.png

          Delete them with: swift run snapshot-testing prune --usage \(shardA.path) --usage \(shardB.path) --delete

          """
      )
    }
  }

  @Test func noLogIsRefused() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = fixture.session()
      #expect(session.prune(usageFolders: [], delete: true) == .refused)
      #expect(console.errors == "Refusing to prune: no usage log was given (--usage).\n")
    }
  }
}

/// `--usage` through the built executable.
@Suite struct PruneShardsExecutableTests {
  @Test func usageCanBeRepeatedAndIsRequired() throws {
    try ReviewFixture.with { fixture in
      try fixture.setLoggedProcesses()
      let empty = fixture.usage.deletingLastPathComponent().appendingPathComponent("empty-shard")
      try PruneShardsTests().writeLog(in: empty, references: [])
      let listed = try ExecutableTests().run(
        ["prune", "--usage", fixture.usage.path, "--usage", empty.path],
        in: fixture.root
      )
      #expect(listed.status == ToolExitCode.pending.rawValue)
      #expect(listed.output.hasPrefix("2 unreferenced snapshot files (of 6"))
      #expect(
        listed.output.contains(
          "prune --usage \(fixture.usage.path) --usage \(empty.path) --delete"
        )
      )

      let missing = try ExecutableTests().run(["prune"], in: fixture.root)
      #expect(missing.status == ToolExitCode.usage.rawValue)
      #expect(missing.errors.contains("--usage"))
    }
  }
}
