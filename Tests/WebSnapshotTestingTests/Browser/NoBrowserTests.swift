import Foundation
import RunRecord
import SnapshotTesting
import Testing

@testable import WebSnapshotTesting

/// What a user without a browser sees: every assertion fails, naming the variable, the names
/// looked for and the install commands, and records nothing. These run everywhere, browser or
/// not (the lookup sees a `PATH` that holds none), unlike the suites that need one.
@Suite struct NoBrowserTests {
  static let missingBrowser: RunEnvironment = [
    .chromium: "/nonexistent/chromium", .path: "/nonexistent",
  ]

  @Test func noChromiumFailsEveryAssertionAndRecordsNothing() {
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let page = WebTesting.solidPage("#fff")
    for name in ["first", "second"] {
      let failure = folder.verify(
        page,
        as: .image,
        named: name,
        record: .all,
        environment: NoBrowserTests.missingBrowser
      )
      #expect(failure?.contains("SNAPSHOT_TESTING_CHROMIUM") == true, "\(failure ?? "passed")")
      #expect(failure?.contains("apt-get install chromium") == true)
      #expect(failure?.contains("/nonexistent/chromium") == true)
    }
    let tree = folder.verify(
      page,
      as: .accessibilityTree,
      record: .all,
      environment: NoBrowserTests.missingBrowser
    )
    #expect(tree?.contains("apt-get install chromium") == true)
    #expect(folder.recordedFiles.isEmpty, "recorded \(folder.recordedFiles)")
  }

  /// The Swift Testing entry point reports the failure as an issue at the assertion.
  @Test func noChromiumIsAnIssueInSwiftTesting() {
    RunEnvironment.withOverride(NoBrowserTests.missingBrowser) {
      withKnownIssue {
        assertSnapshot(of: WebTesting.solidPage("#fff"), as: .image, record: .never)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("apt-get install chromium") }
      }
    }
  }
}
