import Foundation
import CustomDump
import SnapshotTesting
import SnapshotTestingCustomDump
import Testing

@Suite struct CustomDumpStrategyTests {
  @Test func snapshotsACustomDumpOfAnyValue() async throws {
    let user = User(id: 1, name: "Blob", tags: ["b", "a"])
    let text = await snapshotText(of: user, as: .customDump)
    #expect(
      text == """
        User(
          id: 1,
          name: "Blob",
          tags: Set([
            "a",
            "b"
          ])
        )
        """
    )
  }

  @Test func scrubbing() async throws {
    struct Session { var id: UUID; var previous: UUID }
    let id = UUID()
    let text = await snapshotText(
      of: Session(id: id, previous: id),
      as: .customDump.scrubbing(.uuids)
    )
    #expect(
      text == """
        CustomDumpStrategyTests.Session(
          id: UUID(UUID_1),
          previous: UUID(UUID_1)
        )
        """
    )
  }

  @Test func matchesCustomDumpItself() async {
    let values: [Any] = [
      Role.member(since: 2020), [3, 1, 2], ["b": 1, "a": 2], "text", 42, Optional<Int>.none as Any,
    ]
    for value in values {
      var expected = ""
      customDump(value, to: &expected)
      #expect(await snapshotText(of: value, as: .customDump) == expected)
    }
  }

  @Test func storesTextAndDiffsLineByLine() throws {
    let strategy = Snapshotting<Any, String>.customDump
    #expect(strategy.pathExtension == "txt")
    let reference = strategy.diffing.toData("a\nb")
    #expect(strategy.diffing.fromData(reference) == "a\nb")
    let difference = strategy.diffing.diffV2("a\nb", "a\nc")?.0
    #expect(difference == Diffing<String>.lines.diffV2("a\nb", "a\nc")?.0)
    #expect(strategy.diffing.diffV2("same", "same") == nil)
  }
}
