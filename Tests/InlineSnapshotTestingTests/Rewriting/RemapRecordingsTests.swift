import Testing

@testable import InlineSnapshotTesting

/// Following calls into a file that another process rewrote during the run.
@Suite struct RemapRecordingsTests {
  static let original = """
    func f() {
      assertInlineSnapshot(of: 1, as: .lines)
    }
    func g() {
      assertInlineSnapshot(of: 2, as: .lines)
    }

    """

  @Test func movesARecordingByTheLinesInsertedAboveItsCall() throws {
    let shifted = Self.original.replacingOccurrences(
      of: "assertInlineSnapshot(of: 1, as: .lines)\n",
      with: "assertInlineSnapshot(of: 1, as: .lines) {\n    \"\"\"\n    1\n    \"\"\"\n  }\n"
    )
    let second = recording(in: Self.original, occurrence: 2, actual: "2")
    let moved = remapRecordings([second], from: Self.original, to: shifted)
    #expect(moved?.map(\.line) == [second.line + 4])
    #expect(moved?.first?.column == second.column)
  }

  @Test func keepsRecordingsOfAnUnchangedFile() {
    let first = recording(in: Self.original, actual: "1")
    #expect(remapRecordings([first], from: Self.original, to: Self.original) == [first])
  }

  @Test func givesUpWhenTheCallWasEditedOrIsAmbiguous() {
    let second = recording(in: Self.original, occurrence: 2, actual: "2")
    let edited = Self.original.replacingOccurrences(of: "of: 2", with: "of: 3")
    #expect(remapRecordings([second], from: Self.original, to: edited) == nil)

    let duplicated = Self.original + "func h() {\n  assertInlineSnapshot(of: 2, as: .lines)\n}\n"
    #expect(remapRecordings([second], from: Self.original, to: duplicated) == nil)

    let moved = InlineSnapshotRecording(
      line: 3,
      column: 1,
      syntaxDescriptor: .init(),
      expected: nil,
      actual: "x"
    )
    #expect(remapRecordings([moved], from: Self.original, to: edited) == nil)
  }
}
