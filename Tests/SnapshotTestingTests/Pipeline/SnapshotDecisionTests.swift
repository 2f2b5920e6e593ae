import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

/// The pure decision, driven without a file system or a test framework: every record mode against
/// every state the reference can be in.
@Suite struct SnapshotDecisionTests {
  typealias Record = SnapshotTestingConfiguration.Record

  enum ReferenceState: String, CaseIterable {
    case missing, equal, different, unreadable, gitLFSPointer
  }

  /// What each record mode does with each reference state, outside CI.
  static let expected: [String: [ReferenceState: String]] = [
    "all": [
      .missing: "recorded(all)", .equal: "recorded(all)", .different: "recorded(all)",
      .unreadable: "recorded(all)", .gitLFSPointer: "recorded(all)",
    ],
    "missing": [
      .missing: "recorded(missing)", .equal: "matched", .different: "mismatch",
      .unreadable: "failed", .gitLFSPointer: "failed",
    ],
    "failed": [
      .missing: "recorded(missing)", .equal: "matched", .different: "mismatch(rerecords)",
      .unreadable: "failed", .gitLFSPointer: "failed",
    ],
    "never": [
      .missing: "missing(never)", .equal: "matched", .different: "mismatch",
      .unreadable: "failed", .gitLFSPointer: "failed",
    ],
  ]

  static let url = URL(fileURLWithPath: "/pkg/__Snapshots__/T/t.1.txt")

  static func reference(_ state: ReferenceState) -> Result<StoredReference, SnapshotFileError> {
    switch state {
    case .missing: .success(.missing)
    case .equal: .success(.present(Data("same\n".utf8)))
    case .different: .success(.present(Data("old\n".utf8)))
    case .unreadable: .failure(.unreadable(url, "Permission denied"))
    case .gitLFSPointer: .failure(.gitLFSPointer(url))
    }
  }

  static func decide(
    _ mode: Record,
    _ state: ReferenceState,
    configured: Bool = true,
    onCI: Bool = false
  ) -> SnapshotDecision {
    decideSnapshot(
      recordMode: ResolvedRecordMode(
        mode: mode,
        isConfigured: configured,
        writesMissingReferences: configured || !onCI
      ),
      reference: reference(state),
      snapshot: "same\n",
      snapshotData: Data("same\n".utf8),
      diffing: .lines,
      referenceURL: url
    )
  }

  static func summary(_ decision: SnapshotDecision) -> String {
    switch decision {
    case .matched: "matched"
    case .recorded(.recordModeAll): "recorded(all)"
    case .recorded(.referenceMissing): "recorded(missing)"
    case .missing(.recordModeNever): "missing(never)"
    case .missing(.continuousIntegration): "missing(ci)"
    case .mismatch(let difference): difference.rerecords ? "mismatch(rerecords)" : "mismatch"
    case .failed: "failed"
    }
  }

  @Test(arguments: [Record.all, .missing, .failed, .never], ReferenceState.allCases)
  func everyRecordModeAgainstEveryReferenceState(_ mode: Record, _ state: ReferenceState) {
    #expect(Self.summary(Self.decide(mode, state)) == Self.expected[mode.description]?[state])
  }

  @Test func onCIWithNothingConfiguredAMissingReferenceIsNotRecorded() {
    #expect(
      Self.summary(Self.decide(.missing, .missing, configured: false, onCI: true)) == "missing(ci)"
    )
    #expect(Self.summary(Self.decide(.missing, .missing, configured: false)) == "recorded(missing)")
    #expect(Self.summary(Self.decide(.missing, .missing, onCI: true)) == "recorded(missing)")
  }

  @Test func aMismatchCarriesTheFormatsDifference() throws {
    guard case .mismatch(let difference) = Self.decide(.missing, .different) else {
      Issue.record("expected a mismatch")
      return
    }
    #expect(difference.difference.contains("−old\n+same"))
    #expect(difference.attachments.count == 1)
    #expect(!difference.referenceWasEmpty)
  }

  @Test func anEmptyReferenceIsNoted() throws {
    let decision = decideSnapshot(
      recordMode: ResolvedRecordMode(
        mode: .never,
        isConfigured: true,
        writesMissingReferences: true
      ),
      reference: .success(.present(Data())),
      snapshot: "new\n",
      snapshotData: Data("new\n".utf8),
      diffing: .lines,
      referenceURL: Self.url
    )
    guard case .mismatch(let difference) = decision else {
      Issue.record("expected a mismatch")
      return
    }
    #expect(difference.referenceWasEmpty)
  }

  @Test func aTextReferenceThatIsNotUTF8FailsNamingTheFile() {
    let decision = decideSnapshot(
      recordMode: ResolvedRecordMode(
        mode: .missing,
        isConfigured: true,
        writesMissingReferences: true
      ),
      reference: .success(.present(Data([0xFF, 0xFE, 0x00]))),
      snapshot: "new\n",
      snapshotData: Data("new\n".utf8),
      diffing: .lines,
      referenceURL: Self.url
    )
    guard case .failed(let error) = decision else {
      Issue.record("expected a failure")
      return
    }
    #expect(error == .notUTF8(Self.url))
  }

  @Test func aComparisonThatFindsNoDifferenceMatches() {
    // Bytes differ but the format's comparison says equal: a match, as upstream.
    var lenient = Diffing<String>.lines
    lenient.diffV2 = { _, _ in nil }
    let decision = decideSnapshot(
      recordMode: ResolvedRecordMode(
        mode: .missing,
        isConfigured: true,
        writesMissingReferences: true
      ),
      reference: .success(.present(Data("old\n".utf8))),
      snapshot: "new\n",
      snapshotData: Data("new\n".utf8),
      diffing: lenient,
      referenceURL: Self.url
    )
    #expect(Self.summary(decision) == "matched")
  }
}
