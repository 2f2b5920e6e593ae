import Foundation
import SnapshotTesting
import TestSupport
import Testing

@testable import WebSnapshotTesting

/// Accessibility trees nested a million deep are built, written and freed without recursion; a
/// tree with more than ``AccessibilityTree/maximumDepth`` nested lines fails the snapshot. In a
/// debug build the million levels take about 9 s of processor time and 900 MB, most of it the
/// million node messages; before, the build (one call a level), the text (likewise) and the
/// freeing of the items (each released its children) overflowed the stack and killed the test
/// process.
@Suite struct AccessibilityTreeDepthTests {
  static let depth = 1_000_000

  /// A chain of `depth` nodes of `role` (each the only child of the one before) ending in a
  /// button, as `Accessibility.getFullAXTree` lists nodes: flat, linked by identifiers.
  static func chain(_ depth: Int, role: String) -> [JSONMessage] {
    var nodes: [JSONMessage] = []
    nodes.reserveCapacity(depth + 1)
    for level in 0..<depth {
      var node: [String: Any] = [
        "nodeId": "\(level)", "role": ["value": role], "childIds": ["\(level + 1)"],
      ]
      if level > 0 { node["parentId"] = "\(level - 1)" }
      nodes.append(JSONMessage(node))
    }
    nodes.append(
      JSONMessage([
        "nodeId": "\(depth)", "parentId": "\(depth - 1)", "role": ["value": "button"],
        "name": ["value": "Pay"],
      ])
    )
    return nodes
  }

  /// Unnamed containers add no line: a hundred thousand of them around a button write one line.
  @Test func deepTransparentLevelsWriteTheirOneLine() {
    let tree = AccessibilityTree(nodes: Self.chain(100_000, role: "generic"))
    #expect(tree.yaml == "- button \"Pay\"\n")
  }

  /// A million lists, each inside the one before: built, refused when written, and freed.
  @Test func aMillionNestedLinesAreRefused() {
    let tree = AccessibilityTree(nodes: Self.chain(Self.depth, role: "list"))
    #expect(tree.yaml == nil)
  }

  @Test func theDeepestTreeWrittenAndOneLevelMore() throws {
    let limit = AccessibilityTree.maximumDepth
    // `limit - 1` lists and the button: `limit` nested lines.
    let yaml = try #require(AccessibilityTree(nodes: Self.chain(limit - 1, role: "list")).yaml)
    let lines = yaml.split(separator: "\n")
    #expect(lines.count == limit)
    let button = String(repeating: "  ", count: limit - 1) + "- button \"Pay\""
    #expect(String(lines[lines.count - 1]) == button)
    #expect(AccessibilityTree(nodes: Self.chain(limit, role: "list")).yaml == nil)
  }

  /// The page's own tree, from the browser, one level deeper than written: the assertion fails
  /// with the limit named.
  @Test(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
  func aPageNestedTooDeepFailsTheSnapshot() {
    let levels = AccessibilityTree.maximumDepth + 1
    let page = WebPage(
      html: """
        <!doctype html><body><script>
        let parent = document.body;
        for (let level = 0; level < \(levels); level++) {
          const group = document.createElement("div");
          group.setAttribute("role", "group");
          group.setAttribute("aria-label", "g");
          parent.appendChild(group);
          parent = group;
        }
        parent.appendChild(document.createElement("button")).textContent = "Pay";
        </script>
        """
    )
    let (tree, failure, _) = WebTesting.snapshot(page, as: .accessibilityTree)
    #expect(tree == nil)
    #expect(
      failure?.contains(
        "The page's accessibility tree is nested more than \(AccessibilityTree.maximumDepth) "
          + "levels deep, deeper than .accessibilityTree writes."
      ) == true,
      "\(failure ?? "no failure")"
    )
  }
}
