import Foundation
import Testing

@testable import SnapshotTesting

/// Property-list trees nested a million deep are written (up to the limit) and freed without
/// recursion, and a value deeper than ``PropertyListXMLWriter/maximumDepth`` fails `.plist`. In
/// a debug build the million levels take about 1.4 s of processor time and 160 MB; before, writing (one call a level) and
/// freeing (each node released its children) overflowed the stack and killed the test process.
@Suite struct PropertyListDepthTests {
  /// `depth` arrays, each the only element of the one before, around the integer 1; built in a
  /// loop, so that no recursion of the test's own reaches the code under test.
  static func chain(_ depth: Int) -> PropertyListNode {
    let root = PropertyListNode.array()
    var innermost = root
    for _ in 1..<depth {
      let next = PropertyListNode.array()
      innermost.append(next)
      innermost = next
    }
    innermost.append(PropertyListNode(.signedInteger(1)))
    return root
  }

  @Test func aMillionLevelsAreRefusedAndFreed() {
    var root: PropertyListNode? = Self.chain(1_000_000)
    #expect(PropertyListXMLWriter.document(for: root!) == nil)
    // Freed here, a node at a time.
    root = nil
  }

  @Test func theDeepestTreeWrittenAndOneLevelMore() throws {
    let limit = PropertyListXMLWriter.maximumDepth
    // `limit` arrays: the integer at depth `limit`.
    let document = try #require(PropertyListXMLWriter.document(for: Self.chain(limit)))
    let lines = document.split(separator: "\n")
    #expect(lines.count == 3 + limit * 2 + 1 + 1)
    #expect(lines[3] == "<array>")
    #expect(lines[3 + limit] == String(repeating: "\t", count: limit) + "<integer>1</integer>")
    #expect(lines[lines.count - 2] == "</array>")
    #expect(PropertyListXMLWriter.document(for: Self.chain(limit + 1)) == nil)
  }

  /// Nests `depth` arrays through the encoder's containers, in a loop.
  struct Nested: Encodable {
    var depth: Int

    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for _ in 1..<depth { container = container.nestedUnkeyedContainer() }
      try container.encode(1)
    }
  }

  @Test func aValueNestedDeeperThanTheLimitFailsThePlist() {
    let (_, failure) = UnavailableSnapshot.collecting {
      Snapshotting<Nested, String>.plist
        .snapshot(Nested(depth: PropertyListXMLWriter.maximumDepth + 2)).run { _ in }
    }
    #expect(
      failure
        == "The value is nested more than 1000 levels deep, deeper than .plist writes. "
        + "Snapshot a shallower view of it."
    )
    let (text, none) = UnavailableSnapshot.collecting {
      var text = ""
      Snapshotting<Nested, String>.plist.snapshot(Nested(depth: 3)).run { text = $0 }
      return text
    }
    #expect(none == nil)
    #expect(text.contains("<array>\n\t<array>\n\t\t<array>\n\t\t\t<integer>1</integer>\n"))
  }
}
