import InlineSnapshotTesting
import SnapshotTesting
import Testing
import XCTest

// This target is built with `-warnings-as-errors` (Package.swift): every spelling below is one
// upstream 1.19.7 deprecates only on Apple platforms, with `deprecated: 9999`, so a suite that
// uses it builds without a warning on Linux there, and must here too. A deprecation added where
// upstream has none stops this target from building.

/// `record: true` and `record: false` (Record's boolean literal) in each place upstream takes a
/// record mode.
@Suite(.snapshots(record: false))
struct SilentSpellingsTests {
  @Test func booleanRecordModesAreAllAndMissing() {
    let on: SnapshotTestingConfiguration.Record = true
    let off: SnapshotTestingConfiguration.Record = false
    #expect(on == .all)
    #expect(off == .missing)
  }

  @Test func booleanRecordModeInEveryPlaceThatTakesOne() {
    withSnapshotTesting(record: false) {
      assertInlineSnapshot(of: 42, as: .description, record: false) {
        """
        42
        """
      }
    }
  }

  /// `.dump`, which upstream deprecates on Apple platforms in favour of `.customDump`.
  @Test func dumpStrategy() {
    assertInlineSnapshot(of: [1, 2], as: .dump) {
      """
      ▿ 2 elements
        - 1
        - 2

      """
    }
  }
}

final class SilentSpellingsXCTests: XCTestCase {
  func testBooleanRecordModes() {
    withSnapshotTesting(record: false) {
      assertInlineSnapshot(of: "x", as: .lines, record: false) {
        """
        x
        """
      }
    }
    XCTAssertEqual(true as SnapshotTestingConfiguration.Record, .all)
  }
}
