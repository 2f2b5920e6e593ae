import Foundation
import RunRecord
import ImageSnapshotTesting
import SnapshotReview
import SnapshotTesting

/// A package-like folder whose tests have run: real assertions failed against its references
/// (two text mismatches, a missing text reference, an image mismatch), one matched, and
/// references of deleted tests lie beside them. Removed when the closure returns.
struct ReviewFixture {
  /// The package's folder: `Package.swift`, `Tests/AppTests/…`.
  let root: URL
  let artifacts: URL
  /// The usage log folder (`SNAPSHOT_TESTING_USED_REFERENCES`).
  let usage: URL
  /// `Tests/AppTests/__Snapshots__/GreetingTests`.
  let snapshots: URL

  var environment: RunEnvironment {
    [.artifacts: artifacts.path, .usedReferences: usage.path]
  }

  /// References whose tests still exist, and the stale ones no test reads.
  static let greeting = "testGreeting.1.txt"
  static let farewell = "testFarewell.farewell.txt"
  static let fresh = "testFresh.1.txt"
  static let badge = "testBadge.1.png"
  static let stable = "testStable.1.txt"
  static let staleText = "testRenamed.1.txt"
  static let stalePNG = "OldTests/testDeleted.1.png"

  static let referenceBadge = try? Bitmap(width: 24, height: 16) { x, y in
    RGBA(red: UInt8(x * 10), green: 120, blue: UInt8(y * 15))
  }
  static let newBadge = try? Bitmap(width: 24, height: 16) { x, y in
    x > 8 && x < 16 && y > 4 && y < 12
      ? RGBA(red: 250, green: 30, blue: 30)
      : RGBA(red: UInt8(x * 10), green: 120, blue: UInt8(y * 15))
  }

  static func with<R>(_ body: (ReviewFixture) throws -> R) throws -> R {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("SnapshotReviewTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: base) }
    let fixture = ReviewFixture(
      root: base.appendingPathComponent("App"),
      artifacts: base.appendingPathComponent("artifacts"),
      usage: base.appendingPathComponent("usage"),
      snapshots: base.appendingPathComponent("App/Tests/AppTests/__Snapshots__/GreetingTests")
    )
    try fixture.populate()
    return try body(fixture)
  }

  func reference(_ name: String) -> URL {
    snapshots.appendingPathComponent(name)
  }

  /// A reference path as the tool shows it: relative to the package.
  func relative(_ name: String) -> String {
    "Tests/AppTests/__Snapshots__/GreetingTests/\(name)"
  }

  func write(_ data: Data, to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try data.write(to: url)
  }

  private func populate() throws {
    try write(
      Data("// swift-tools-version:6.0\n".utf8),
      to: root.appendingPathComponent("Package.swift")
    )
    try write(
      Data("fixture data\n".utf8),
      to: root.appendingPathComponent("Tests/AppTests/Fixtures/notes.txt")
    )
    try write(Data("Hello\nWorld\n".utf8), to: reference(Self.greeting))
    try write(Data("Goodbye\nfor now\n".utf8), to: reference(Self.farewell))
    try write(Data("steady\n".utf8), to: reference(Self.stable))
    try write(Data("old\n".utf8), to: reference(Self.staleText))
    try write(
      Data([0x89, 0x50, 0x4E, 0x47]),
      to: snapshots.appendingPathComponent("../\(Self.stalePNG)")
    )
    // A dependency's checkout and a hidden file: never the package's own references.
    try write(
      Data("dependency\n".utf8),
      to: root.appendingPathComponent(
        ".build/checkouts/Dep/Tests/__Snapshots__/DepTests/test.1.txt"
      )
    )
    try write(Data("*.png binary\n".utf8), to: snapshots.appendingPathComponent(".gitattributes"))
    if let referenceBadge = Self.referenceBadge {
      try write(try referenceBadge.pngData(), to: reference(Self.badge))
    }

    _ = verify("Hello\nthere\n", as: .lines, testName: "testGreeting()")
    _ = verify("Goodbye\nsee you\n", as: .lines, named: "farewell", testName: "testFarewell()")
    _ = verify("brand new\nsnapshot\n", as: .lines, testName: "testFresh()")
    _ = verify("steady\n", as: .lines, testName: "testStable()")
    if let newBadge = Self.newBadge {
      _ = verify(newBadge, as: .image, testName: "testBadge()")
    }
  }

  /// Runs a real assertion against the fixture's snapshot folder, as a test of the package would.
  @discardableResult
  func verify<Value, Format>(
    _ value: Value,
    as strategy: Snapshotting<Value, Format>,
    named name: String? = nil,
    testName: String
  ) -> String? {
    RunEnvironment.$override.withValue(environment) {
      verifySnapshot(
        of: value,
        as: strategy,
        named: name,
        record: .never,
        snapshotDirectory: snapshots.path,
        testName: testName
      )
    }
  }

  /// A session of the tool on this fixture, as `swift run snapshot-testing` in the package's
  /// folder would run it, with a console that answers from `answers`.
  func session(answers: [String] = []) -> (ReviewSession, ScriptedConsole) {
    let console = ScriptedConsole(answers: answers)
    let session = ReviewSession(
      artifactsRoot: artifacts,
      hints: CommandHints(packageRoot: root),
      console: console
    )
    return (session, console)
  }

  /// Every file under the package, relative to it, to compare before and after a command.
  func packageFiles() -> [String: Data] {
    var files: [String: Data] = [:]
    let prefix = root.standardizedFileURL.path + "/"
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return files }
    while let relative = walker.nextObject() as? String {
      let url = root.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue, let data = try? Data(contentsOf: url)
      {
        files[String(url.standardizedFileURL.path.dropFirst(prefix.count))] = data
      }
    }
    return files
  }

  /// Replaces the usage log's process descriptions (the log holds the arguments of the process
  /// that wrote it: this test runner's) with one process for each of `runs`, as `swift test` would
  /// have started them. Each finished unless `finished` is false; each ran on `revision`.
  func setLoggedProcesses(
    _ runs: [[String]] = PruneTests.fullRun,
    finished: Bool = true,
    revision: String? = nil,
    in folder: URL? = nil
  ) throws {
    let folder = folder ?? usage
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where name.hasPrefix("process-") || name.hasPrefix("finished-") {
      try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
    for (index, arguments) in runs.enumerated() {
      var record: [String: Any] = ["arguments": arguments, "startedAt": 0]
      if let revision { record["revision"] = revision }
      let json = try JSONSerialization.data(withJSONObject: record)
      try json.write(to: folder.appendingPathComponent("process-\(index)-fixture.json"))
      if finished {
        try Data().write(to: folder.appendingPathComponent("finished-\(index)-fixture"))
      }
    }
  }
}

func contents(of url: URL) -> Data? {
  try? Data(contentsOf: url)
}
