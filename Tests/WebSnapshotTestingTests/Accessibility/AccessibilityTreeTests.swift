import Foundation
import SnapshotTesting
import TestSupport
import Testing

@testable import WebSnapshotTesting

/// The accessibility tree as Playwright-style YAML: from the real browser, and from hand-made
/// (also malformed) node lists.
@Suite struct AccessibilityTreeTests {
  static let invoice = WebPage(
    html: """
      <!doctype html><html lang="en"><title>Invoice 42</title>
      <main>
        <h1>Invoice</h1>
        <p>Total due: <strong>€ 120.00</strong></p>
        <ul><li>Paper</li><li>Ink</li></ul>
        <label><input type="checkbox" checked> Remember me</label>
        <button>Pay</button>
        <button disabled>Refund</button>
        <a href="/help">Help</a>
      </main>
      """
  )

  @Test(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
  func invoicePageTree() {
    let (tree, failure, warnings) = WebTesting.snapshot(Self.invoice, as: .accessibilityTree)
    #expect(failure == nil)
    #expect(warnings.isEmpty)
    #expect(
      tree == """
        - main:
          - heading "Invoice" [level=1]
          - paragraph: "Total due: € 120.00"
          - list:
            - listitem: Paper
            - listitem: Ink
          - checkbox "Remember me" [checked]
          - button "Pay"
          - button "Refund" [disabled]
          - link "Help"

        """,
      "\(tree ?? "nil")"
    )
  }

  /// The committed `.yml` reference, through the real assertion.
  @Test(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
  func invoicePageMatchesItsCommittedReference() {
    assertSnapshot(of: Self.invoice, as: .accessibilityTree, timeout: 60)
  }

  /// The example of the "Web pages and SVG" article gives the tree the article shows.
  @Test(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
  func documentedExample() throws {
    let shown = try codeBlock(
      in: "Sources/WebSnapshotTesting/Documentation.docc/WebPagesAndSVG.md",
      after: "assertSnapshot(of: page, as: .accessibilityTree)\n}\n```")
    let page = WebPage(
      html: """
        <h1>Invoice</h1>
        <label><input type="checkbox" checked> Remember me</label>
        <button>Pay</button>
        """
    )
    let (tree, failure, _) = WebTesting.snapshot(page, as: .accessibilityTree)
    #expect(failure == nil)
    // A code block cannot end in a newline; the reference does.
    #expect(tree == shown + "\n", "\(tree ?? "nil")")
  }

  @Test func strategyWritesYAML() {
    #expect(Snapshotting<WebPage, String>.accessibilityTree.pathExtension == "yml")
  }

  @Test func rendersNestingAttributesAndQuoting() {
    let tree = AccessibilityTree(items: [
      .node(role: "heading", name: "Say \"hi\"", attributes: ["level=2"], children: []),
      .node(
        role: "list",
        name: "",
        attributes: [],
        children: [
          .node(role: "listitem", name: "", attributes: [], children: [.text("- dash")]),
          .node(
            role: "listitem",
            name: "",
            attributes: [],
            children: [.text("a"), .node(role: "button", name: "b", attributes: [], children: [])]
          ),
        ]
      ),
      .node(role: "checkbox", name: "Mixed", attributes: ["checked=mixed"], children: []),
      .text("true"),
    ])
    #expect(
      tree.yaml == """
        - heading "Say \\"hi\\"" [level=2]
        - list:
          - listitem: "- dash"
          - listitem:
            - text: a
            - button "b"
        - checkbox "Mixed" [checked=mixed]
        - text: "true"

        """
    )
  }

  @Test func malformedNodesNeitherCrashNorLoop() {
    let nodes: [JSONMessage] = [
      JSONMessage(["nodeId": "1", "role": ["value": "RootWebArea"], "childIds": ["2", "9"]]),
      // A cycle back to the root, a missing child, a role that is not an object.
      JSONMessage(["nodeId": "2", "parentId": "1", "role": 7, "childIds": ["1", "3"]]),
      JSONMessage([
        "nodeId": "3", "parentId": "2", "role": ["value": "button"], "name": ["value": 3],
        "properties": [["name": "level"], ["name": "checked", "value": ["value": "true"]]],
      ]),
    ]
    #expect(AccessibilityTree(nodes: nodes).yaml == "- button [checked]\n")
    #expect(AccessibilityTree(nodes: []).yaml == "")
  }
}
