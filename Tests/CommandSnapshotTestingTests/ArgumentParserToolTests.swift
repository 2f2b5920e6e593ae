import Foundation
import TestSupport
import SnapshotTesting
import Testing

@testable import CommandSnapshotTesting

/// The guide's example, run for real: a swift-argument-parser tool of this package, found with
/// `productURL`, its help, a usage error and a confirmation read from standard input.
@Suite struct ArgumentParserToolTests {
  let tool = productURL("mytool")

  @Test func help() {
    assertSnapshot(of: Command(executable: tool, arguments: ["--help"]), as: .output)
  }

  @Test func unknownOption() {
    let (text, _) = snapshotText(
      Command(executable: tool, arguments: ["--colour", "red"]),
      as: .output
    )
    // A usage error: nothing on standard output, the error on standard error, status 64.
    #expect(text.hasPrefix("$ mytool --colour red\n[stderr]\nError: "))
    #expect(text.hasSuffix("\n[exit 64]"))
    assertSnapshot(of: Command(executable: tool, arguments: ["--colour", "red"]), as: .output)
  }

  @Test func confirm() {
    let delete = Command(executable: tool, arguments: ["delete", "draft 1.txt"])
    assertSnapshot(of: delete.withStandardInput("yes\n"), as: .output)
    let (declined, _) = snapshotText(delete, as: .output)
    #expect(declined.hasSuffix("Kept draft 1.txt.\n[exit 1]"))
  }
}
