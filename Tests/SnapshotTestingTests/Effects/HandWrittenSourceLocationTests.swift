import Testing

@_spi(Internals) @testable import SnapshotTesting

/// Source locations that callers spell by hand (a `fileID` without a module, line 0) still
/// produce a usable issue instead of crashing the run.
@Suite struct HandWrittenSourceLocationTests {
  @Test func fileIDWithoutAModuleDoesNotCrashTheRun() {
    withKnownIssue {
      recordIssue(
        "failure",
        fileID: "MyTests.swift",
        filePath: "/src/MyTests.swift",
        line: 0,
        column: 0
      )
    } matching: { issue in
      issue.sourceLocation?.fileID == "UnknownModule/MyTests.swift"
        && issue.sourceLocation?.line == 1
        && issue.comments.contains { $0.rawValue == "failure" }
    }
  }

  @Test func wellFormedLocationsAreKept() {
    let location = safeSourceLocation(
      fileID: "AppTests/UserTests.swift",
      filePath: "/src/UserTests.swift",
      line: 12,
      column: 5
    )
    #expect(location.fileID == "AppTests/UserTests.swift")
    #expect(location.line == 12)
    #expect(location.column == 5)
  }
}
