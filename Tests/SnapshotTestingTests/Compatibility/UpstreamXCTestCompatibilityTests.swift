import SnapshotTesting
import XCTest

/// The README's XCTest pattern: configure every test of a class.
final class UpstreamXCTestCompatibilityTests: XCTestCase {
  override func invokeTest() {
    withSnapshotTesting(record: .never, diffTool: .ksdiff) {
      super.invokeTest()
    }
  }

  func testFeature() {
    assertSnapshot(of: LegacyViewController(), as: .outline)
  }
}
