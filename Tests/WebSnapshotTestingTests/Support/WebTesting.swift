import Foundation
import ImageSnapshotTesting
import RunRecord
import SnapshotTesting
import TestSupport
import Testing

@testable import WebSnapshotTesting

/// What the web tests share: whether Chromium is here, taking a snapshot straight from a
/// strategy (with what it reported), and a temporary folder for references.
enum WebTesting {
  /// Whether the browser suites run: when a browser can be found, and always on CI (`CI` set),
  /// where a missing browser must fail every browser test, naming what was looked for, rather
  /// than skip them silently (CI installs it with
  /// `scripts/require-system-packages.sh --with-chromium`).
  static let chromiumInstalled: Bool = suitesRun(
    browserFound: {
      if case .success = BrowserExecutable.locate(in: .process) {
        return true
      }
      return false
    }(),
    environment: ProcessInfo.processInfo.environment
  )

  /// `extra` with the browser settings of the process (`SNAPSHOT_TESTING_CHROMIUM`, `PATH`), for
  /// a test that binds an environment of its own but must run the browser the run chose.
  static func environment(_ extra: RunEnvironment = [:]) -> RunEnvironment {
    var environment = extra
    for key in [RunEnvironment.Key.chromium, .path] where environment[key] == nil {
      environment[key] = RunEnvironment.process[key]
    }
    return environment
  }

  /// The rule behind `chromiumInstalled`, apart from this machine's browser and environment.
  static func suitesRun(browserFound: Bool, environment: [String: String]) -> Bool {
    browserSuitesRun(browserFound: browserFound, environment: environment)
  }

  static let skipReason: Comment =
    "Chromium is not installed; install it with `scripts/require-system-packages.sh --with-chromium`"

  /// The strategy's snapshot of `page`, the reason it could not be taken (if any) and its
  /// warnings, as the assertion would see them.
  static func snapshot<Format>(
    _ page: WebPage,
    as strategy: Snapshotting<WebPage, Format>,
    timeout: TimeInterval = 60
  ) -> (value: Format?, failure: String?, warnings: [String]) {
    let ((value, failure), warnings) = SnapshotWarning.collecting {
      UnavailableSnapshot.collecting {
        SnapshotWait.$current.withValue(SnapshotWait(timeout: timeout)) {
          awaitValue(strategy.snapshot(page), timeout: timeout)
        }
      }
    }
    return (failure == nil ? value : nil, failure, warnings)
  }

  /// The bitmap of `page`, or the reason there is none.
  static func render(
    _ page: WebPage,
    as strategy: Snapshotting<WebPage, Bitmap> = .image
  ) throws -> Bitmap {
    let (value, failure, _) = snapshot(page, as: strategy)
    if let failure { throw ServerError(failure) }
    guard let value else { throw ServerError("no snapshot within the timeout") }
    return value
  }

  /// A page of one solid colour with no margin.
  static func solidPage(_ color: String, extra: String = "") -> WebPage {
    WebPage(html: "<!doctype html><body style=\"margin:0;background:\(color)\">\(extra)</body>")
  }
}

/// A temporary folder for references and artifacts, removed by `remove()`.
struct ReferenceFolder {
  let root = FileManager.default.temporaryDirectory
    .appendingPathComponent("WebSnapshotTestingTests-\(UUID().uuidString)")

  var references: URL { root.appendingPathComponent("references") }

  /// `verifySnapshot` with references in this folder.
  func verify<Format>(
    _ page: WebPage,
    as strategy: Snapshotting<WebPage, Format>,
    named name: String = "page",
    record: SnapshotTestingConfiguration.Record,
    timeout: TimeInterval = 60,
    environment: RunEnvironment = [:],
    testName: String = #function
  ) -> String? {
    var environment = WebTesting.environment(environment)
    environment[.artifacts] = root.appendingPathComponent("artifacts").path
    return RunEnvironment.withOverride(environment) {
      verifySnapshot(
        of: page,
        as: strategy,
        named: name,
        record: record,
        snapshotDirectory: references.path,
        timeout: timeout,
        testName: testName
      )
    }
  }

  /// The files under `references`.
  var recordedFiles: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: references.path)) ?? []
  }

  func remove() {
    try? FileManager.default.removeItem(at: root)
  }
}

/// The processes that a browser started by process `owner` left: those whose environment names
/// `owner` in `BrowserProcess.ownerVariable`. A process in the middle of `exec` reads as having
/// no environment for a moment (its file opened before the `exec` reads empty after it), so
/// "none" is only believed when it is seen twice.
func browserProcesses(startedBy owner: Int32) -> [Int32] {
  let marker = Data("\(BrowserProcess.ownerVariable)=\(owner)\u{0}".utf8)
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.compactMap { entry -> Int32? in
    guard let pid = Int32(entry),
      let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
      environment.range(of: marker) != nil
    else { return nil }
    // A zombie has no environment left; one that was read is alive.
    return pid
  }
}
