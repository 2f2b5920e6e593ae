import Foundation
import SnapshotTesting
import TestSupport
import Testing
import XCTest

@testable import CommandSnapshotTesting

/// The command strategies through both test frameworks' entry points, matching committed
/// references and failing with their messages.
@Suite struct SwiftTestingEntryPointTests {
  @Test func greetMatchesItsReference() {
    assertSnapshot(of: fixtureCommand("greet", "--name", "Blob"), as: .output)
  }

  @Test func aMissingProgramIsAnIssue() {
    withKnownIssue {
      assertSnapshot(of: Command(executable: URL(fileURLWithPath: "/no/such/tool")), as: .output)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix(#"No program at "/no/such/tool"."#) }
    }
  }

  @Test func expectSnapshotReturnsFalseOnATimeout() {
    var matched = true
    withKnownIssue {
      matched = expectSnapshot(of: fixtureCommand("sleep", "30", timeout: 0.5), as: .output)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("ran past its timeout of 0.5 seconds") }
    }
    #expect(!matched)
  }
}

final class XCTestEntryPointTests: FailureCapturingTestCase {
  func testGreetMatchesItsReference() {
    assertSnapshot(of: fixtureCommand("greet", "--name", "Blob"), as: .output)
  }

  func testAMissingProgramFailsNamingThePath() {
    let failures = capturingFailures {
      assertSnapshot(of: Command(executable: URL(fileURLWithPath: "/no/such/tool")), as: .output)
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.message.contains(#"No program at "/no/such/tool"."#) == true,
      failures.first?.message ?? "no failure"
    )
    XCTAssertTrue(failures.first?.message.contains("nothing was recorded") == true)
  }

  func testASignalIsRecordedNotExitZero() {
    let command = Command(executable: shell, arguments: ["-c", "kill -INT $$"])
    assertSnapshot(of: command, as: .output)
  }
}
