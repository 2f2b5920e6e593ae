import Foundation
import RunRecord
import TestSupport
import XCTest

@testable import SnapshotTesting

/// `.json(redacting:)` through XCTest's `assertSnapshot`: the spelling matches a committed
/// reference, and each bad input is an XCTest failure naming it, with nothing recorded.
final class JSONRedactionXCTests: FailureCapturingTestCase {
  typealias Fixtures = JSONRedactionFixtures

  /// A bad input for each test: the strategy and what the failure says.
  private static let badInputs: [(name: String, message: String, assert: @Sendable () -> Void)] = [
    (
      "syntax error",
      #"The redaction selector "items[*.id" has an error at character 8: expected "]", found ".""#,
      { assertSnapshot(of: Fixtures.response, as: .json(redacting: ["items[*.id"]), named: "bad") }
    ),
    (
      "matches nothing",
      #"The redaction selector "meta.requestId" matched nothing in the JSON."#,
      {
        assertSnapshot(
          of: Fixtures.response,
          as: .json(redacting: ["meta.requestId"]),
          named: "bad"
        )
      }
    ),
    (
      "key in a top-level array",
      #"The document is an array: start a selector with "[*]" or "**"."#,
      { assertSnapshot(of: Fixtures.topLevelArray, as: .json(redacting: ["name"]), named: "bad") }
    ),
    (
      "Any, syntax error",
      #"The redaction selector "[0" has an error at character 3: expected "]""#,
      { assertSnapshot(of: ["a": 1] as Any, as: .json(redacting: ["[0"]), named: "bad") }
    ),
  ]

  /// Each bad input fails once, with its message, and records nothing, even when asked to.
  func testEachBadInputFailsNamingItAndRecordsNothing() {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("__Snapshots__/JSONRedactionXCTests", isDirectory: true)
    for (name, message, assert) in Self.badInputs {
      let failures = withTemporaryDirectory { artifacts in
        RunEnvironment.withOverride([.artifacts: artifacts.path]) {
          withSnapshotTesting(record: .all) { capturingFailures(assert) }
        }
      }
      XCTAssertEqual(failures.count, 1, name)
      XCTAssertTrue(failures.first?.message.contains(message) == true, "\(name): \(failures)")
      XCTAssertEqual(fileNames(in: folder).filter { $0.contains(".bad.") }, [], name)
    }
  }

  func testTheSpellingFromTheIssue() {
    let response = Fixtures.response
    assertSnapshot(
      of: response,
      as: .json(redacting: ["id", "items[*].createdAt", "meta.requestID"])
    )
  }

  func testInsideATopLevelArray() {
    assertSnapshot(of: Fixtures.topLevelArray, as: .json(redacting: ["[*].createdAt"]))
    let object = try! JSONSerialization.jsonObject(with: Data(#"[{"id":1},{"id":2}]"#.utf8))
    assertSnapshot(of: object, as: .json(redacting: ["**.id"]), named: "any")
  }

  func testTenMegabytesAreRedacted() throws {
    let large = try Fixtures.compactJSON(Fixtures.largeString(megabytes: 10))
    let strategy = Snapshotting<String, String>.lines.pullback { (json: String) in
      JSONRedaction(["text"]).apply(to: json)
    }
    var redacted = ""
    strategy.snapshot(large).run { redacted = $0 }
    XCTAssertEqual(redacted, #"{"id":"1","text":"[redacted string]"}"#)
  }
}
