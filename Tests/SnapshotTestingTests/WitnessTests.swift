import Foundation
import Testing

@testable import SnapshotTesting

@Suite struct WitnessTests {
  static let text = Diffing<String>.diff(
    toData: { Data($0.utf8) },
    fromData: { String(decoding: $0, as: UTF8.self) },
    diffV2: { $0 == $1 ? nil : ("differ", []) }
  )

  @Test func pullbackTransformsBeforeSnapshotting() {
    let doubled = Snapshotting<String, String>(pathExtension: "txt", diffing: Self.text)
      .pullback { (number: Int) in String(number * 2) }
    var result: String?
    doubled.snapshot(21).run { result = $0 }
    #expect(result == "42")
    #expect(doubled.pathExtension == "txt")
  }

  @Test func asyncPullbackWaitsForTheTransform() throws {
    let later = Snapshotting<String, String>(pathExtension: nil, diffing: Self.text)
      .asyncPullback { (number: Int) in
        Async { callback in
          let deliver = UncheckedSendable(callback)
          DispatchQueue.global().async { deliver.value("\(number)") }
        }
      }
    let value = try awaitSnapshot(
      later.snapshot(7),
      timeout: 5,
      referenceURL: URL(fileURLWithPath: "/x")
    )
    #expect(value == "7")
  }

  @Test func asyncMapComposes() {
    var result: Int?
    Async(value: 20).map { $0 + 1 }.map { $0 * 2 }.run { result = $0 }
    #expect(result == 42)
  }

  @Test func simplySnapshottingSnapshotsTheValueItself() {
    let strategy = SimplySnapshotting<String>(pathExtension: "md", diffing: Self.text)
    var result: String?
    strategy.snapshot("# Title").run { result = $0 }
    #expect(result == "# Title")
    #expect(strategy.pathExtension == "md")
  }

  @Test func waitingIsTheSameAsWait() throws {
    let strategy = Snapshotting<String, String>.waiting(for: 0.05, on: .lines)
    let started = Date()
    let value = try awaitSnapshot(
      strategy.snapshot("later"),
      timeout: 5,
      referenceURL: URL(fileURLWithPath: "/x")
    )
    #expect(value == "later")
    #expect(Date().timeIntervalSince(started) >= 0.05)
    #expect(strategy.pathExtension == "txt")
  }

  @available(*, deprecated)
  @Test func deprecatedDiffPropertyRoundTripsThroughDiffV2() throws {
    var diffing = Self.text
    diffing.diff = { old, new in old == new ? nil : ("legacy: \(old) → \(new)", []) }
    let (message, attachments) = try #require(diffing.diffV2("a", "b"))
    #expect(message == "legacy: a → b")
    #expect(attachments.isEmpty)
    #expect(diffing.diff("a", "a") == nil)
  }
}
