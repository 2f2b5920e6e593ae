import Testing

@testable import ImageSnapshotTesting

/// The map's scan for failing pixels, which skips passing ones by words and cache lines: it must
/// visit exactly the failing pixels of any range, in order, whatever their spacing.
@Suite struct PixelDifferenceMapTests {
  @Test(arguments: [1, 3, 8, 50, 64, 200, 1000])
  func theScanVisitsExactlyTheFailingPixels(spacing: Int) {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20 {
      let count = Int.random(in: 0..<700, using: &generator)
      let map = PixelDifferenceMap(pixelCount: count)
      let recorder = map.recorder
      var failing: [Int] = []
      var index = Int.random(in: 0..<(spacing + 1), using: &generator)
      while index < count {
        recorder.record(index, deltaE: 5, fails: true)
        // Some failing pixels are forgiven, and some differing ones pass: neither is visited.
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: recorder.forgive(index)
        case 1: recorder.record(index, deltaE: 1, fails: false)
        default: failing.append(index)
        }
        index += Int.random(in: 1...(2 * spacing), using: &generator)
      }
      let lower = Int.random(in: 0...count, using: &generator)
      let upper = Int.random(in: lower...count, using: &generator)
      var visited: [Int] = []
      recorder.forEachFailingPixel(in: lower..<upper) { visited.append($0) }
      #expect(visited == failing.filter { (lower..<upper).contains($0) }, "\(lower)..<\(upper) of \(count)")
    }
  }
}
