import SnapshotTesting
import SnapshotTestingCustomDump
import XCTest

/// The strategy under XCTest, on a value type.
final class CustomDumpXCTests: XCTestCase {
  func testWorksWithAssertSnapshotsValueTypes() async {
    let text = await snapshotText(of: Role.admin, as: .customDump)
    XCTAssertEqual(text, "Role.admin")
  }
}
