import Foundation
import XCTest

@testable import SnapshotTesting

/// Scrubbing under XCTest, where `withSnapshotTesting(scrubbing:)` is the scope.
final class ScrubbingXCTests: XCTestCase {
  func testAScopeScrubsTheAssertionsInIt() {
    let id = UUID().uuidString
    let (text, _) = withSnapshotTesting(scrubbing: [.uuids]) {
      recordedText(of: "\(id) \(UUID()) \(id)", as: .lines)
    }
    XCTAssertEqual(text, "UUID_1 UUID_2 UUID_1")
  }

  func testScrubbingStrategy() {
    let (text, _) = recordedText(
      of: "took 12 ms",
      as: .lines.scrubbing(.replacing(#/took \d+ ms/#, with: "took <duration>"))
    )
    XCTAssertEqual(text, "took <duration>")
  }
}
