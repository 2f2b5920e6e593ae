import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

@Suite struct ReferenceLocationTests {
  @Test(arguments: [
    ("testUser()", "testUser"),
    ("test_user_1()", "test_user_1"),
    ("user(id:)", "user-id"),
    ("dark mode/large", "dark-mode-large"),
    ("..", ""),
    ("a..b", "a-b"),
    ("-leading and trailing-", "leading-and-trailing"),
    ("Ünïcödé naïve", "Ünïcödé-naïve"),
    ("emoji 🎉 name", "emoji-name"),
  ])
  func sanitizesLikeUpstream(_ input: String, _ expected: String) {
    #expect(sanitizePathComponent(input) == expected)
  }

  @Test func defaultLayoutIsBesideTheTestFile() throws {
    let location = try locate(
      filePath: "/src/pkg/Tests/AppTests/UserTests.swift",
      counter: { 3 }
    )
    #expect(
      location.referenceURL.path
        == "/src/pkg/Tests/AppTests/__Snapshots__/UserTests/testUser.3.txt"
    )
    #expect(location.testFileName == "UserTests")
    #expect(location.baseName == "testUser.3")
  }

  @Test func namedSnapshotsUseTheSanitizedName() throws {
    let location = try locate(
      identifier: "iPhone SE/dark",
      counter: {
        Issue.record("counter used"); return 0
      },
      pathExtension: "png"
    )
    #expect(location.fileName == "testUser.iPhone-SE-dark.png")
    #expect(location.directory.path == "/src/Tests/T/__Snapshots__/UserTests")
  }

  @Test(arguments: ["..", "/", "../..", " ", "—"])
  func namesWithoutLettersOrDigitsAreRejected(_ name: String) {
    #expect {
      _ = try locate(
        identifier: name
      )
    } throws: { error in
      (error as? SnapshotNameError)?.description.hasPrefix(
        "The snapshot name \"\(name)\" has no letters or digits"
      ) == true
    }
  }

  @Test func namesNeverEscapeTheSnapshotFolder() throws {
    let location = try locate(
      identifier: "../../etc/passwd",
      pathExtension: nil
    )
    #expect(
      location.referenceURL.path == "/src/Tests/T/__Snapshots__/UserTests/testUser.etc-passwd"
    )
  }

  @Test func noPathExtensionMeansNoSuffix() throws {
    let location = try locate(
      filePath: "/src/Tests/T/A.swift",
      testName: "t()",
      pathExtension: nil
    )
    #expect(location.fileName == "t.1")
  }

  @Test func snapshotDirectoryReplacesTheDefaultFolder() throws {
    let location = try locate(
      filePath: "/src/Tests/T/A.swift",
      testName: "t()",
      counter: { 2 },
      pathExtension: "json",
      snapshotDirectory: "/fixtures/here",
      referenceRoot: "/ignored"
    )
    #expect(location.referenceURL.path == "/fixtures/here/t.2.json")
  }

  @Test func referenceRootKeepsTheLayoutFromTheTestsFolder() throws {
    let location = try locate(
      filePath: "/build/machine/pkg/Tests/AppTests/UI/ButtonTests.swift",
      testName: "t()",
      referenceRoot: "/mnt/references"
    )
    #expect(
      location.referenceURL.path
        == "/mnt/references/Tests/AppTests/UI/__Snapshots__/ButtonTests/t.1.txt"
    )
  }

  @Test func referenceRootOutsideATestsFolderKeepsTheFolderName() throws {
    let location = try locate(
      filePath: "/work/Checks/ButtonChecks.swift",
      testName: "t()",
      referenceRoot: "/mnt/references"
    )
    #expect(
      location.referenceURL.path == "/mnt/references/Checks/__Snapshots__/ButtonChecks/t.1.txt"
    )
  }
}

/// `locateReference` with the defaults most tests share, so each test shows only what it varies.
private func locate(
  filePath: String = "/src/Tests/T/UserTests.swift",
  testName: String = "testUser()",
  identifier: String? = nil,
  counter: @escaping () -> Int = { 1 },
  pathExtension: String? = "txt",
  snapshotDirectory: String? = nil,
  referenceRoot: String? = nil
) throws(SnapshotNameError) -> ReferenceLocation {
  try locateReference(
    filePath: filePath,
    testName: testName,
    identifier: identifier.map(ReferenceIdentifier.named) ?? .counter(counter()),
    pathExtension: pathExtension,
    snapshotDirectory: snapshotDirectory,
    referenceRoot: referenceRoot
  )
}
