import Demo
import ImageSnapshotTesting
import SnapshotTesting
import Testing

@Suite struct ChartTests {
  @Test func revenueChart() throws {
    let values = isChanged ? [0.3, 0.55, 0.9, 0.6] : [0.3, 0.55, 0.8, 0.6]
    let chart = try Bitmap(
      width: 160,
      height: 90,
      rgbaBytes: renderBarChart(values, width: 160, height: 90)
    )
    // Up to 1 % of pixels may differ by up to ΔE 2 (invisible noise); the taller bar is neither.
    assertSnapshot(of: chart, as: .image(precision: 0.99, perceptualPrecision: 0.98))
  }
}
