import Foundation
import SnapshotTesting

extension Snapshotting where Value == WebPage, Format == String {
  /// The page's accessibility tree as text, one node a line, in the YAML form of Playwright's
  /// ARIA snapshots; recorded as `.yml` and diffed line by line.
  ///
  /// ```swift
  /// assertSnapshot(of: WebPage(html: "<h1>Invoice</h1><button>Pay</button>"),
  ///                as: .accessibilityTree)
  /// // - heading "Invoice" [level=1]
  /// // - button "Pay"
  /// ```
  ///
  /// The page loads as for ``Snapshotting/image(width:height:fullPage:element:masking:precision:perceptualPrecision:ignoringAntialiasing:maxDifferentPixels:)``
  /// at 1280×720. A tree nested more than 1,000 levels deep fails the assertion, naming the
  /// limit.
  public static var accessibilityTree: Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.asyncPullback { (page: WebPage) in
      WebRendering.snapshot(
        of: page,
        width: nil,
        height: nil,
        placeholder: { "" }
      ) { session throws(WebSnapshotError) in
        let reply = try await session.send("Accessibility.getFullAXTree")
        guard let yaml = AccessibilityTree(nodes: reply.messages("nodes")).yaml else {
          throw .accessibilityTreeTooDeep(maximumDepth: AccessibilityTree.maximumDepth)
        }
        return yaml
      }
    }
    strategy.pathExtension = "yml"
    return strategy
  }
}
