import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

@Suite struct DifferenceExcerptTests {
  @Test func aDifferenceWithinTheLimitsIsKeptAsItIs() {
    let lines = (1...DifferenceExcerpt.maximumLines).map { "+line \($0)" }
    let difference = "@@ −1 +1 @@\n" + lines.dropFirst().joined(separator: "\n") + "\n"
    let excerpt = DifferenceExcerpt(difference, patchPath: "/a/t.1.difference.patch")
    #expect(excerpt.isWhole)
    #expect(excerpt.text == difference.trimmingCharacters(in: .newlines))
  }

  @Test func linesPastTheLimitAreCountedAndLeftToThePatch() {
    let lines = (1...(DifferenceExcerpt.maximumLines + 250)).map { "+line \($0)" }
    let excerpt = DifferenceExcerpt(lines.joined(separator: "\n"), patchPath: "/a/t.1.difference.patch")
    #expect(!excerpt.isWhole)
    let shown = excerpt.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(shown.count == DifferenceExcerpt.maximumLines + 1)
    #expect(shown.dropLast().map(String.init) == Array(lines.prefix(DifferenceExcerpt.maximumLines)))
    #expect(
      shown.last
        == #"[… 250 more lines left out; the whole difference is in "/a/t.1.difference.patch"]"#
    )
  }

  @Test func aLongLineIsCutOnACharacterBoundary() {
    // "é" is two bytes: an odd cut would split one.
    let long = "+" + String(repeating: "é", count: DifferenceExcerpt.maximumLineBytes)
    let excerpt = DifferenceExcerpt("−short\n" + long, patchPath: nil)
    let shown = excerpt.text.split(separator: "\n").map(String.init)
    #expect(shown.count == 3)
    #expect(shown[0] == "−short")
    #expect(shown[1].hasPrefix("+éé") && shown[1].hasSuffix("é…"))
    #expect(shown[1].utf8.count <= DifferenceExcerpt.maximumLineBytes + "…".utf8.count)
    let left = long.utf8.count - (shown[1].utf8.count - "…".utf8.count)
    #expect(shown[2] == "[… the ends of 1 long line (\(left) bytes) left out]")
  }

  /// A one-line change in a large snapshot: the message and the record stay small, the patch,
  /// the reference and the new snapshot whole.
  @Test func aHugeMismatchPrintsAndRecordsABoundedExcerpt() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let old = String(repeating: "a", count: 4_000_000) + "\n"
      let new = String(repeating: "a", count: 3_999_999) + "b\n"
      try sandbox.write(old, to: "sandbox.1.txt")

      let message = try #require(sandbox.verify(new, as: .lines, record: .never))

      #expect(message.utf8.count < 10_000)
      let patch = sandbox.artifact("sandbox.1.difference.patch")
      #expect(message.contains(#"left out; the whole difference is in "\#(patch.path)"]"#))
      #expect(try Data(contentsOf: patch).count > 8_000_000)
      #expect(try Data(contentsOf: sandbox.artifact("sandbox.1.txt")) == Data(new.utf8))
      #expect(try Data(contentsOf: sandbox.reference("sandbox.1.txt")) == Data(old.utf8))
      let records = ArtifactsFolder(root: sandbox.artifacts).failureRecordsFolder
      let names = try FileManager.default.contentsOfDirectory(atPath: records.path)
      #expect(names.count == 1)
      let size = try Data(contentsOf: records.appendingPathComponent(names[0])).count
      #expect(size < 30_000)
    }
  }
}
