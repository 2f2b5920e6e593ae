import Demo
import Foundation
import SnapshotTesting
import Testing
import WebSnapshotTesting

/// `DEMO_VARIANT=changed` simulates a regression.
let isChanged = ProcessInfo.processInfo.environment["DEMO_VARIANT"] == "changed"

@Suite struct InvoiceTests {
  @Test func printedInvoice() {
    assertSnapshot(of: Invoice.sample(changed: isChanged).printed, as: .lines)
  }

  @Test func invoiceJSON() {
    assertSnapshot(of: Invoice.sample(changed: isChanged), as: .json)
  }

  /// The invoice's web page, rendered by headless Chromium: its accessibility tree as text, and
  /// its pixels.
  @Test func invoicePage() {
    let page = WebPage(html: Invoice.sample(changed: isChanged).html)
    assertSnapshot(of: page, as: .accessibilityTree)
    assertSnapshot(of: page, as: .image(width: 640, height: 400, perceptualPrecision: 0.98))
  }
}
