import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// A real package, run the ways CI splits a suite: `swift test --parallel`, two shards made with
/// `--filter` and `--skip`, and a parallel run in which a worker crashes. Then `prune` on their
/// usage logs, with the package's test list from `swift test list`.
///
/// The package's tests use this package's own `SnapshotTesting`, `RunRecord` and `CProcessStart`
/// sources, copied beside it as a package without dependencies: resolving and building
/// swift-syntax for a fixture would take minutes.
@Suite(.serialized) struct SplitRunPackageTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let files: [String: String] = [
    "Core/Package.swift": """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "Core",
        products: [.library(name: "SnapshotTesting", targets: ["SnapshotTesting"])],
        targets: [
          .target(name: "RunRecord"),
          .target(name: "CProcessStart"),
          .target(name: "SnapshotTesting", dependencies: ["RunRecord", "CProcessStart"]),
        ]
      )

      """,
    "App/Package.swift": """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "App",
        dependencies: [.package(path: "../Core")],
        targets: [
          .testTarget(
            name: "AppTests",
            dependencies: [.product(name: "SnapshotTesting", package: "Core")],
            exclude: ["__Snapshots__"]
          )
        ]
      )

      """,
    "App/Tests/AppTests/GreetingTests.swift": """
      import Foundation
      import SnapshotTesting
      import XCTest

      final class GreetingTests: XCTestCase {
        func testGreeting() { assertSnapshot(of: "Hello", as: .lines) }
        func testFarewell() { assertSnapshot(of: "Goodbye", as: .lines) }
        func testPlain() {
          if ProcessInfo.processInfo.environment["FIXTURE_CRASH"] != nil {
            fatalError("crashing on purpose")
          }
          XCTAssertEqual(1 + 1, 2)
        }
      }

      """,
    "App/Tests/AppTests/BadgeTests.swift": """
      import SnapshotTesting
      import Testing

      @Suite struct BadgeSuite {
        @Test func badge() { assertSnapshot(of: "badge", as: .lines) }
      }

      @Test func plain() { #expect(1 + 1 == 2) }

      """,
    "App/Tests/AppTests/__Snapshots__/GreetingTests/testGreeting.1.txt": "Hello",
    "App/Tests/AppTests/__Snapshots__/GreetingTests/testFarewell.1.txt": "Goodbye",
    "App/Tests/AppTests/__Snapshots__/GreetingTests/testRemoved.1.txt": "Gone",
    "App/Tests/AppTests/__Snapshots__/BadgeTests/badge.1.txt": "badge",
  ]

  static let stale = "Tests/AppTests/__Snapshots__/GreetingTests/testRemoved.1.txt"

  /// Writes the fixture into a temporary folder and runs `body` with the app's folder.
  func withFixture(_ body: (URL) throws -> Void) throws {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("SplitRunPackage-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: base) }
    for (path, text) in Self.files {
      let url = base.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try Data(text.utf8).write(to: url)
    }
    for target in ["RunRecord", "CProcessStart", "SnapshotTesting"] {
      try FileManager.default.copyItem(
        at: Self.repository.appendingPathComponent("Sources/\(target)"),
        to: base.appendingPathComponent("Core/Sources/\(target)")
      )
    }
    try body(base.appendingPathComponent("App"))
  }

  /// Runs `swift test ARGUMENTS` in `app`, logging usage in `usage`; returns its exit status and
  /// what it printed.
  func swiftTest(
    _ arguments: [String],
    in app: URL,
    usage: URL,
    crash: Bool = false
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "test"] + arguments
    process.currentDirectoryURL = app
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SNAPSHOT_") }
    environment["SNAPSHOT_TESTING_USED_REFERENCES"] = usage.path
    environment["SNAPSHOT_ARTIFACTS"] = app.appendingPathComponent(".artifacts").path
    environment["SWIFT_BACKTRACE"] = "enable=no"
    if crash { environment["FIXTURE_CRASH"] = "1" }
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  func prune(_ app: URL, _ folders: [URL], delete: Bool = false) -> (ToolExitCode, ScriptedConsole) {
    let console = ScriptedConsole()
    let session = ReviewSession(
      artifactsRoot: app.appendingPathComponent(".artifacts"),
      hints: CommandHints(packageRoot: app),
      console: console
    )
    let status = session.prune(
      usageFolders: folders,
      testList: .swiftTestList(packageRoot: app),
      delete: delete
    )
    return (status, console)
  }

  @Test func parallelWorkersAndShardsProveCoverageAndACrashIsRefused() throws {
    try withFixture { app in
      let base = app.deletingLastPathComponent()

      // `swift test --parallel`: one process per XCTest test, one for Swift Testing.
      let parallel = base.appendingPathComponent("usage-parallel")
      let run = try swiftTest(["--parallel"], in: app, usage: parallel)
      try #require(run.status == 0, "\(run.output)")
      let processes = try ReferenceUsageLog.load(folder: parallel).processes
      #expect(
        processes.filter { TestSelection(arguments: $0.arguments) != .listing }.count == 4,
        "\(processes.map(\.arguments))"
      )
      #expect(processes.allSatisfy { $0.finished })
      let (listed, listedConsole) = prune(app, [parallel])
      #expect(listed == .pending, "\(listedConsole.errors)")
      #expect(
        listedConsole.errors.hasPrefix(
          "The run was split; listing the package's tests to check that every one ran"
        )
      )
      #expect(
        listedConsole.output.hasPrefix(
          "1 unreferenced snapshot file (of 4 under __Snapshots__ folders):\n  \(Self.stale)\n"
        ),
        "\(listedConsole.output)"
      )

      // Two shards: neither alone ran every test; together they did.
      let (shardA, shardB) = (
        base.appendingPathComponent("usage-a"), base.appendingPathComponent("usage-b")
      )
      #expect(try swiftTest(["--filter", "Greeting"], in: app, usage: shardA).status == 0)
      #expect(try swiftTest(["--skip", "Greeting"], in: app, usage: shardB).status == 0)
      let (alone, aloneConsole) = prune(app, [shardA])
      #expect(alone == .refused)
      #expect(
        aloneConsole.errors.contains(
          "ran 2 of the package's 5 tests, so their references would look unused:\n"
            + "  AppTests.BadgeSuite/badge()\n  AppTests.plain()\n"
        ),
        "\(aloneConsole.errors)"
      )
      let (merged, mergedConsole) = prune(app, [shardA, shardB], delete: true)
      #expect(merged == .success, "\(mergedConsole.errors)")
      #expect(mergedConsole.output.contains("  \(Self.stale)\n"))
      #expect(mergedConsole.output.hasSuffix("Deleted 1 file.\n"))

      // A worker that crashes: its test is named, nothing is deleted.
      try Data("Gone".utf8).write(to: app.appendingPathComponent(Self.stale))
      let crashed = base.appendingPathComponent("usage-crashed")
      #expect(try swiftTest(["--parallel"], in: app, usage: crashed, crash: true).status != 0)
      let (refused, refusedConsole) = prune(app, [crashed], delete: true)
      #expect(refused == .refused)
      #expect(
        refusedConsole.errors.contains(
          "did not finish (crashed or killed), so the references of the tests it was running "
            + "would look unused. Unfinished:\n  AppTests.GreetingTests/testPlain (in"
        ),
        "\(refusedConsole.errors)"
      )
      #expect(FileManager.default.fileExists(atPath: app.appendingPathComponent(Self.stale).path))
    }
  }
}
