import Foundation
import TestSupport
import Testing

@testable import SnapshotReview

/// Runs the built `snapshot-testing` executable, as a user or a CI script would.
@Suite struct ExecutableTests {
  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  /// The executable sits beside the test bundle.
  static let executable = builtProduct("snapshot-testing")

  func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Run
  {
    let executable = try #require(
      Self.executable,
      "snapshot-testing was not built beside \(CommandLine.arguments[0]); run `swift build` first"
    )
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var inherited = ProcessInfo.processInfo.environment
    inherited["SNAPSHOT_ARTIFACTS"] = nil
    process.environment = inherited.merging(environment) { _, new in new }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus,
      output: String(decoding: outputData, as: UTF8.self),
      errors: String(decoding: errorData, as: UTF8.self)
    )
  }

  @Test func reviewWithoutATerminalListsAndExitsOne() throws {
    try ReviewFixture.with { fixture in
      let result = try run(
        ["review"],
        in: fixture.root,
        environment: ["SNAPSHOT_ARTIFACTS": fixture.artifacts.path]
      )
      #expect(result.status == ToolExitCode.pending.rawValue)
      #expect(result.output.hasPrefix("4 pending snapshot failures in \(fixture.artifacts.path):"))
      // The folder came from SNAPSHOT_ARTIFACTS: the commands name it, for a shell without it.
      #expect(
        result.output.contains(
          "  accept: swift run snapshot-testing accept --artifacts \(fixture.artifacts.path) \(fixture.relative(ReviewFixture.greeting))\n"
        ),
        "\(result.output)"
      )
      // No terminal: never `--all`.
      #expect(!result.output.contains("--all"))
      #expect(result.errors.isEmpty)
    }
  }

  @Test func acceptAndRejectChangeTheFilesAndExitZero() throws {
    try ReviewFixture.with { fixture in
      let pending = PendingFailures.load(
        artifactsRoot: fixture.artifacts,
        packageRoot: fixture.root
      )
      let badge = try #require(pending.failures.first { $0.record.testName == "testBadge()" })
      let newBadge = try #require(contents(of: badge.failedSnapshotURL))
      let oldGreeting = contents(of: fixture.reference(ReviewFixture.greeting))

      let accepted = try run(
        ["accept", "--artifacts", fixture.artifacts.path, fixture.relative(ReviewFixture.badge)],
        in: fixture.root
      )
      #expect(accepted.status == 0)
      #expect(accepted.output == "Accepted \(fixture.relative(ReviewFixture.badge))\nAccepted 1.\n")
      #expect(contents(of: fixture.reference(ReviewFixture.badge)) == newBadge)

      let rejected = try run(
        ["reject", "--artifacts", fixture.artifacts.path, "--all"],
        in: fixture.root
      )
      #expect(rejected.status == 0)
      #expect(rejected.output.hasSuffix("Rejected 3.\n"))
      #expect(contents(of: fixture.reference(ReviewFixture.greeting)) == oldGreeting)

      let review = try run(["review", "--artifacts", fixture.artifacts.path], in: fixture.root)
      #expect(review.status == 0)
      #expect(review.output == "No pending snapshot failures in \(fixture.artifacts.path).\n")
    }
  }

  @Test func noMatchExitsFour() throws {
    try ReviewFixture.with { fixture in
      let result = try run(
        ["accept", "--artifacts", fixture.artifacts.path, "testTypo"],
        in: fixture.root
      )
      #expect(result.status == ToolExitCode.noMatch.rawValue)
      #expect(result.errors.hasPrefix(#"No pending failure matches "testTypo"."#))
    }
  }

  @Test(arguments: [
    (
      ["accept"],
      "Error: Name the failures (part of a test name or a reference path), or pass --all."
    ),
    (["reject", "--all", "testGreeting"], "Error: Pass either --all or filters, not both."),
    (["prune"], "Error: Missing expected argument '--usage <dir>'"),
    (["review", "--colour"], "Error: Unknown option '--colour'"),
    (["frobnicate"], "Error: Unexpected argument 'frobnicate'"),
  ])
  func usageErrorsExitTwo(arguments: [String], message: String) throws {
    try ReviewFixture.with { fixture in
      let result = try run(arguments, in: fixture.root)
      #expect(result.status == ToolExitCode.usage.rawValue)
      #expect(result.errors.hasPrefix(message))
      #expect(result.output.isEmpty)
    }
  }

  @Test func pruneRefusesAPartialRunWithExitThreeAndDeletesAFullRunsUnusedFiles() throws {
    try ReviewFixture.with { fixture in
      let binary = "/x/AppPackageTests.xctest"
      try fixture.setLoggedProcesses([
        [binary, "AppTests.GreetingTests/testGreeting"],
        [binary, "--testing-library", "swift-testing"],
      ])
      let list = fixture.root.appendingPathComponent("tests.txt")
      try Data(PruneCoverageTests.testList.utf8).write(to: list)
      let refused = try run(
        ["prune", "--usage", fixture.usage.path, "--test-list", list.path, "--delete"],
        in: fixture.root
      )
      #expect(refused.status == ToolExitCode.refused.rawValue)
      #expect(
        refused.errors.hasPrefix(
          "Refusing to prune: no test process of the run ran 2 of the package's 5 tests"
        )
      )
      #expect(
        FileManager.default.fileExists(atPath: fixture.reference(ReviewFixture.staleText).path)
      )

      try fixture.setLoggedProcesses()
      let listed = try run(["prune", "--usage", fixture.usage.path], in: fixture.root)
      #expect(listed.status == ToolExitCode.pending.rawValue)
      let deleted = try run(["prune", "--usage", fixture.usage.path, "--delete"], in: fixture.root)
      #expect(deleted.status == 0)
      #expect(deleted.output.hasSuffix("Deleted 2 files.\n"))
      #expect(
        !FileManager.default.fileExists(atPath: fixture.reference(ReviewFixture.staleText).path)
      )
    }
  }

  @Test func optimizeCheckExitsOneThenOptimizeMakesItZeroAndABrokenFileFive() throws {
    try OptimizeFixture.with { fixture in
      let check = try run(["optimize", "--check"], in: fixture.root)
      #expect(check.status == ToolExitCode.pending.rawValue)
      #expect(check.output.contains("1 of 2 PNG files could shrink by "))

      let optimized = try run(["optimize"], in: fixture.root)
      #expect(optimized.status == 0)
      #expect(optimized.output.contains("Optimized 1 of 2 PNG files: saved "))
      #expect(try run(["optimize", "--check"], in: fixture.root).status == 0)

      try fixture.write(Data("GIF89a".utf8), to: fixture.reference("testBroken.1.png"))
      let broken = try run(["optimize", "--check"], in: fixture.root)
      #expect(broken.status == ToolExitCode.failure.rawValue)
      #expect(
        broken.errors.hasPrefix(
          "error: \(fixture.relative("testBroken.1.png")): not a valid PNG: the PNG signature is missing\n"
        )
      )
    }
  }

  @Test(arguments: ["review", "accept", "reject", "prune", "report", "optimize", nil])
  func everyCommandHasHelpWithTheExitCodes(command: String?) throws {
    try ReviewFixture.with { fixture in
      let result = try run((command.map { [$0] } ?? []) + ["--help"], in: fixture.root)
      #expect(result.status == 0)
      #expect(result.output.contains("USAGE: snapshot-testing \(command ?? "<subcommand>")"))
      #expect(result.output.contains(command == nil ? "EXIT CODES:" : "Exits 0 when"))
    }
  }
}
