import Foundation
import RunRecord
import Testing

@testable import WebSnapshotTesting

/// Which executable the web module picks: these need no browser, only files on a made-up PATH.
struct BrowserExecutableTests {
  /// A folder holding an executable file for each of `names`, removed by the caller.
  private func folder(with names: [String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("BrowserExecutableTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in names {
      let file = folder.appendingPathComponent(name)
      try Data("#!/bin/sh\n".utf8).write(to: file)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }
    return folder
  }

  @Test func theHeadlessShellIsPreferredWhenBothAreInstalled() throws {
    let folder = try folder(with: ["chromium", "chromium-headless-shell"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let found = BrowserExecutable.locate(in: [.path: folder.path])
    #expect(try found.get() == folder.appendingPathComponent("chromium-headless-shell").path)
  }

  @Test func chromiumIsTheFallback() throws {
    let folder = try folder(with: ["chromium"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let found = BrowserExecutable.locate(in: [.path: folder.path])
    #expect(try found.get() == folder.appendingPathComponent("chromium").path)
  }

  @Test func theVariableChoosesOverThePreference() throws {
    let folder = try folder(with: ["chromium", "chromium-headless-shell"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let found = BrowserExecutable.locate(in: [.path: folder.path, .chromium: "chromium"])
    #expect(try found.get() == folder.appendingPathComponent("chromium").path)
  }

  @Test func noneFoundNamesEveryNameAndBothInstallCommands() {
    let found = BrowserExecutable.locate(in: [.path: "/nonexistent"])
    guard case .failure(let error) = found else {
      Issue.record("found \(found)")
      return
    }
    let message = error.description
    for name in BrowserExecutable.names {
      #expect(message.contains(name), "\(message)")
    }
    #expect(message.contains("apt-get install chromium-headless-shell"))
    #expect(message.contains("apt-get install chromium`"))
  }
}

/// On CI a missing browser fails the browser tests instead of skipping them.
struct BrowserSuitesOnCITests {
  @Test func withoutABrowserTheSuitesAreSkippedOnlyOffCI() {
    #expect(WebTesting.suitesRun(browserFound: false, environment: [:]) == false)
    #expect(WebTesting.suitesRun(browserFound: false, environment: ["CI": "true"]) == true)
    #expect(WebTesting.suitesRun(browserFound: false, environment: ["CI": ""]) == false)
    #expect(WebTesting.suitesRun(browserFound: true, environment: [:]) == true)
  }

  /// What a browser test sees on CI without a browser: an assertion that fails naming the
  /// variable and every name it looked for, so a broken detection cannot pass unseen.
  @Test func aBrowserTestWithoutABrowserFailsNamingWhatWasLookedFor() {
    let missing: RunEnvironment = [.path: "/nonexistent"]
    let (value, failure, _) = RunEnvironment.withOverride(missing) {
      WebTesting.snapshot(WebTesting.solidPage("#fff"), as: .image)
    }
    #expect(value == nil)
    #expect(failure?.contains("SNAPSHOT_TESTING_CHROMIUM is not set") == true, "\(failure ?? "")")
    #expect(failure?.contains("chromium-headless-shell") == true)
  }
}
