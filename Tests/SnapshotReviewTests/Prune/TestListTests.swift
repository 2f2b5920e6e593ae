import Foundation
import Testing

@testable import SnapshotReview

/// `prune`'s own `swift test list`, run through the package's process runner.
@Suite struct TestListTests {
  /// A folder that holds no package: `swift build` fails at once, and the refusal says how it
  /// ended and what SwiftPM printed on standard error (which the tool captures, not passes on).
  @Test func aFailingListingIsRefusedWithItsStatusAndErrors() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("test-list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let error = #expect(throws: PruneRefusal.self) {
      _ = try TestListSource.swiftTestList(packageRoot: folder).load()
    }
    let message = error?.description ?? ""
    #expect(message.contains("`swift test list` failed in \"\(folder.path)\""))
    #expect(message.contains("swift build --build-tests exited with status 1:"))
    #expect(message.contains("Package.swift"))
  }

  @Test func testNamesKeepOnlyTheLinesThatNameTests() {
    let text = """
      Building for debugging...
      [3/9] Compiling App Greeting.swift
      Build complete! (1.2s)
      AppTests.GreetingTests/testGreeting
      warning: something

      AppTests.plain()
      """
    #expect(
      TestListSource.testNames(in: text)
        == ["AppTests.GreetingTests/testGreeting", "AppTests.plain()"]
    )
  }
}
