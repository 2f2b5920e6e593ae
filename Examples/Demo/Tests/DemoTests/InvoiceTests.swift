import Demo
import Foundation
import SnapshotTesting
import Testing

/// `DEMO_VARIANT=changed` simulates a regression.
let isChanged = ProcessInfo.processInfo.environment["DEMO_VARIANT"] == "changed"

@Suite struct InvoiceTests {
  @Test func printedInvoice() {
    assertSnapshot(of: Invoice.sample(changed: isChanged).printed, as: .lines)
  }

  @Test func invoiceJSON() {
    assertSnapshot(of: Invoice.sample(changed: isChanged), as: .json)
  }
}
