import Foundation
import Testing

@testable import SnapshotTesting

/// Scrubbers in scope: `withSnapshotTesting(scrubbing:)` and `.snapshots(scrubbing:)`.
@Suite struct ScopedScrubbingTests {
  static let id = "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B"

  @Test func aScopeScrubsStrategiesWithoutScrubbing() {
    let (text, _) = withSnapshotTesting(scrubbing: [.uuids]) {
      recordedText(of: "user \(Self.id)", as: .lines)
    }
    #expect(text == "user UUID_1")
  }

  @Test func innerScopesAddToOuterOnesInOrder() {
    let (text, _) = withSnapshotTesting(scrubbing: [.uuids]) {
      withSnapshotTesting(record: .missing, scrubbing: [.replacing("UUID_1", with: "me")]) {
        recordedText(of: "\(Self.id) at 2024-03-01", as: .lines.scrubbing(.iso8601Dates))
      }
    }
    #expect(text == "me at DATE_1")
    let (outside, _) = recordedText(of: Self.id, as: .lines)
    #expect(outside == Self.id, "A scope ends with its block.")
  }

  @Test func scopedScrubbersRunBeforeTheStrategysOwn() {
    let (text, _) = withSnapshotTesting(scrubbing: [.replacing("8F3C", with: "x")]) {
      recordedText(of: Self.id, as: .lines.scrubbing(.uuids))
    }
    #expect(text == "x2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B")
  }

  /// `.wait` calls the inner strategy on another thread, where the scope is not visible: the
  /// engine runs the scoped scrubbers after it instead, as the guide says.
  @Test func aScrubbingStrategyInsideWaitRunsBeforeTheScopedOnes() {
    let scoped: [Scrubber] = [.replacing("8F3C", with: "x")]
    let (inside, _) = withSnapshotTesting(scrubbing: scoped) {
      recordedText(of: Self.id, as: .wait(for: 0, on: .lines.scrubbing(.uuids)))
    }
    let (outside, _) = withSnapshotTesting(scrubbing: scoped) {
      recordedText(of: Self.id, as: .wait(for: 0, on: .lines).scrubbing(.uuids))
    }
    #expect(inside == "UUID_1")
    #expect(outside == "x2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B")
  }

  @Test func scopedScrubbersRunOnceWithNestedScrubbingStrategies() {
    let counting = Scrubber("counting") { $0 + "+" }
    let (text, _) = withSnapshotTesting(scrubbing: [counting]) {
      recordedText(of: "a", as: .lines.scrubbing(.uuids).scrubbing(.iso8601Dates))
    }
    #expect(text == "a+")
  }

  @Test func aThrowingScopedScrubberFailsByName() {
    let refusing = Scrubber("refusing") { _ in throw CancellationError() }
    let (text, message) = withSnapshotTesting(scrubbing: [refusing]) {
      recordedText(of: "a", as: .lines)
    }
    #expect(text == nil)
    #expect(message?.hasPrefix(#"The scrubber "refusing" threw"#) == true)
  }

  @Test func dataIsNeverScrubbed() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let bytes = Data(Self.id.utf8)
      withSnapshotTesting(scrubbing: [.uuids]) {
        _ = sandbox.verify(bytes, as: .data, named: "x")
      }
      #expect((try? Data(contentsOf: sandbox.reference("sandbox.x"))) == bytes)
    }
  }

  @Test func parallelTasksKeepTheirOwnScopes() async {
    let texts = await withTaskGroup(of: (Int, String?).self) { group in
      for index in 0..<8 {
        group.addTask {
          let scrubbers: [Scrubber] = index.isMultiple(of: 2) ? [.uuids] : [.iso8601Dates]
          let (text, _) = await withSnapshotTesting(scrubbing: scrubbers) { () async in
            recordedText(of: "\(Self.id) 2024-03-01", as: .lines)
          }
          return (index, text)
        }
      }
      return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    for (index, text) in texts {
      let expected = index.isMultiple(of: 2) ? "UUID_1 2024-03-01" : "\(Self.id) DATE_1"
      #expect(text == expected)
    }
    #expect(texts.count == 8)
  }
}

/// `.snapshots(scrubbing:)` on a suite, and a test's trait adding to it.
@Suite(.snapshots(scrubbing: [.uuids, .iso8601Dates, .memoryAddresses]))
struct ScrubbingTraitTests {
  @Test func everyTextSnapshotInTheSuiteIsScrubbed() {
    let (text, _) = recordedText(
      of: "\(ScopedScrubbingTests.id) 2024-03-01T09:30:00Z <Cache: 0x600000c04000>",
      as: .lines
    )
    #expect(text == "UUID_1 DATE_1 <Cache: ADDRESS_1>")
  }

  @Test(.snapshots(record: .missing, scrubbing: [.replacing("UUID_1", with: "me")]))
  func aTestsTraitAddsToTheSuites() {
    let (text, _) = recordedText(of: ScopedScrubbingTests.id, as: .lines)
    #expect(text == "me")
  }
}
