import Foundation
import Testing

@testable import SnapshotTesting

@Suite struct WitnessTests {
  @Test func pullbackTransformsBeforeSnapshotting() {
    let lengths = Snapshotting<String, String>(
      pathExtension: "txt",
      diffing: Diffing.diff(
        toData: { Data($0.utf8) },
        fromData: { String(decoding: $0, as: UTF8.self) },
        diffV2: { $0 == $1 ? nil : ("differ", []) }
      )
    ).pullback { (number: Int) in String(number * 2) }
    var result: String?
    lengths.snapshot(21).run { result = $0 }
    #expect(result == "42")
    #expect(lengths.pathExtension == "txt")
  }

  @Test func asyncMapComposes() {
    var result: Int?
    Async(value: 20).map { $0 + 1 }.map { $0 * 2 }.run { result = $0 }
    #expect(result == 42)
  }
}
