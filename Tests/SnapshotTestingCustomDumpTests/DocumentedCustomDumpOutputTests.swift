import Foundation
import SnapshotTestingCustomDump
import TestSupport
import Testing

/// The reference the product's article shows is what `.customDump` writes for the article's value.
@Suite struct DocumentedCustomDumpOutputTests {
  /// The article's `User`, as it declares it (at file scope there; nested here, so that it does
  /// not meet the other tests' `User`, and the dump's qualification by the suite is removed).
  struct User {
    var id: Int
    var name: String
  }

  @Test func userDump() async throws {
    let shown = try codeBlock(
      in: "Sources/SnapshotTestingCustomDump/Documentation.docc/SnapshotTestingCustomDump.md",
      after: "records `userDump.1.txt`:")
    let text = await snapshotText(of: User(id: 1, name: "Blob"), as: .customDump)
    #expect(text.replacingOccurrences(of: "DocumentedCustomDumpOutputTests.", with: "") == shown)
  }
}
