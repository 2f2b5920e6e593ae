import Foundation
import Testing

/// A snapshot assertion that fails where no test can record it (on a queue, a thread or a detached
/// task of a Swift Testing test, after its test ended, after the run) never passes silently: a
/// real test package (`__Fixtures__/UnownedFailures`), built once and run with `swift test` for
/// each case, exits with a failing status and says why on standard error. An assertion that a test
/// owns is reported by that test, as before.
@Suite(.serialized) struct UnownedFailureProcessTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let fixture = repository.appendingPathComponent(
    "Tests/SnapshotTestingTests/__Fixtures__/UnownedFailures",
    isDirectory: true
  )

  /// The first line of what the package writes for a failure no test owns.
  static let unownedReport = "error: This snapshot assertion failed where no test could record it"

  @Test func failuresNoTestOwnsFailTheProcessAndOwnedOnesStayTheTests() throws {
    try withFixturePackage { app in
      let build = try run(["swift", "build", "--build-tests"], in: app)
      try #require(build.status == 0, "\(build.output)")

      // Swift Testing: the run fails, and the message names the reference.
      for name in ["dispatchQueue", "thread", "detachedTask", "afterItsTestEnded", "afterTheRun"] {
        let result = try swiftTest(fixtureCase: name, in: app)
        #expect(result.status != 0, "\(name): \(result.output)")
        #expect(
          result.output.contains("OffTaskTests.swift:13: \(Self.unownedReport)"),
          "\(name): \(result.output)"
        )
        #expect(result.output.contains("offTask.\(name).txt"), "\(name): \(result.output)")
        #expect(
          result.output.contains(
            "error: 1 snapshot assertion failed where no test could record it (see above)"
          ),
          "\(name): \(result.output)"
        )
      }

      // `expectSnapshot` off the test's task, which reports on its own path.
      let expect = try swiftTest(fixtureCase: "expectSnapshotOffTask", in: app)
      #expect(expect.status != 0, "\(expect.output)")
      #expect(expect.output.contains(Self.unownedReport), "\(expect.output)")
      #expect(expect.output.contains("offTask.expectSnapshotOffTask.txt"), "\(expect.output)")

      // XCTest, after its run: XCTFail would reach no test.
      let late = try swiftTest(fixtureCase: "xcTestAfterTheRun", in: app)
      #expect(late.status != 0, "\(late.output)")
      #expect(late.output.contains(Self.unownedReport), "\(late.output)")
      #expect(late.output.contains("offTask.xcTestAfterTheRun.txt"), "\(late.output)")

      // Owned failures are their test's, as before: no word of an unowned one.
      let inTask = try swiftTest(fixtureCase: "inItsTask", in: app)
      #expect(inTask.status != 0, "\(inTask.output)")
      #expect(inTask.output.contains("Test inItsTask() recorded an issue"), "\(inTask.output)")
      #expect(!inTask.output.contains(Self.unownedReport), "\(inTask.output)")
      let xcTest = try swiftTest(fixtureCase: "xcTestOffTheMainThread", in: app)
      #expect(xcTest.status != 0, "\(xcTest.output)")
      #expect(
        xcTest.output.contains("OffTaskXCTests.testOffTheMainThread : failed"),
        "\(xcTest.output)"
      )
      #expect(!xcTest.output.contains(Self.unownedReport), "\(xcTest.output)")

      // A matching snapshot off the test's task passes.
      let matching = try swiftTest(fixtureCase: "matchingOffTask", in: app)
      #expect(matching.status == 0, "\(matching.output)")
      #expect(!matching.output.contains(Self.unownedReport), "\(matching.output)")
    }
  }

  /// Copies the fixture into a temporary folder, with this package's sources in its `Core`, and
  /// runs `body` with the folder of its `App`.
  func withFixturePackage(_ body: (URL) throws -> Void) throws {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("UnownedFailures-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: base) }
    try FileManager.default.copyItem(at: Self.fixture, to: base)
    for target in ["RunRecord", "CProcessStart", "SnapshotTesting"] {
      try FileManager.default.copyItem(
        at: Self.repository.appendingPathComponent("Sources/\(target)"),
        to: base.appendingPathComponent("Core/Sources/\(target)")
      )
    }
    try body(base.appendingPathComponent("App"))
  }

  func swiftTest(fixtureCase: String, in app: URL) throws -> (status: Int32, output: String) {
    try run(["swift", "test", "--skip-build"], in: app, fixtureCase: fixtureCase)
  }

  /// Runs a command in `folder` and returns its exit status and everything it wrote; a command
  /// still running after ten minutes is stopped.
  func run(
    _ arguments: [String],
    in folder: URL,
    fixtureCase: String = ""
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SNAPSHOT_") }
    environment["SNAPSHOT_ARTIFACTS"] = folder.appendingPathComponent(".artifacts").path
    environment["SWIFT_BACKTRACE"] = "enable=no"
    environment["FIXTURE_CASE"] = fixtureCase
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let processID = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(processID, SIGTERM) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 600, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
