import Testing

@_spi(Internals) @testable import SnapshotTesting

/// The `.snapshots` trait on a suite configures each of its tests; a test's own trait wins.
@Suite(.snapshots(record: .failed))
struct SuiteTraitTests {
  @Test func suiteTraitAppliesToItsTests() {
    #expect(SnapshotTestingConfiguration.current?.record == .failed)
  }

  @Test(.snapshots(record: .never))
  func testTraitInsideSuiteTraitWins() {
    #expect(SnapshotTestingConfiguration.current?.record == .never)
  }
}
