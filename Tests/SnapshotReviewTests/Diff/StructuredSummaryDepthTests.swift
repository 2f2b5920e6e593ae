import Foundation
import Testing

@testable import SnapshotReview

/// Documents nested a million deep are compared without recursion. Foundation's parsers refuse
/// more than 512 levels, so a deep document on disk has no summary; the comparison itself walks
/// any depth with a stack of its own. In a debug build each million-level test takes about 3 s
/// of processor time and 350–550 MB; before, one call a level overflowed the stack and killed
/// the test process.
extension StructuredSummaryTests {
  static let depth = 1_000_000

  /// `leaf` inside `depth` containers, alternately `{"next": …}` and `[…]`, from the outside in;
  /// built in a loop.
  static func nested(_ leaf: Any, depth: Int) -> Any {
    var value = leaf
    for level in (0..<depth).reversed() {
      value = level.isMultiple(of: 2) ? ["next": value] as [String: Any] : [value] as [Any]
    }
    return value
  }

  /// Frees a value of `nested(_:depth:)` a level at a time: each container is freed while its
  /// child is still held, so no release reaches further than one level.
  static func free(_ value: inout Any) {
    while true {
      if let object = value as? [String: Any], let child = object["next"] {
        value = child
      } else if let array = value as? [Any], let child = array.first {
        value = child
      } else {
        return
      }
    }
  }

  @Test func aMillionLevelsAreComparedWithoutRecursion() {
    var old = Self.nested([1, 2], depth: Self.depth)
    var new = Self.nested([1, 3, 4], depth: Self.depth)
    let changes = StructuredSummary.changes(between: old, and: new)
    let path = "$" + String(repeating: ".next[0]", count: Self.depth / 2)
    #expect(changes == [path + "[1]: 2 → 3", path + "[2]: added"])
    Self.free(&old)
    Self.free(&new)
  }

  @Test func changesBeyondTheListedOnesAreCountedAtDepth() {
    var old = Self.nested(Array(0..<60), depth: Self.depth)
    var new = Self.nested(Array(1..<61), depth: Self.depth)
    let changes = StructuredSummary.changes(between: old, and: new)
    #expect(changes.count == StructuredSummary.maximumChanges + 1)
    #expect(changes.last == "… 10 more")
    Self.free(&old)
    Self.free(&new)
  }

  @Test func aMillionLevelDocumentHasNoSummary() {
    let open = String(repeating: #"{"a":["#, count: Self.depth / 2)
    let close = String(repeating: "]}", count: Self.depth / 2)
    let old = Data((open + "1" + close).utf8)
    let new = Data((open + "2" + close).utf8)
    #expect(StructuredSummary.changes(from: old, to: new, format: .json) == nil)
  }
}
