import Foundation
import HTTPTypes
import SnapshotTesting
import TestSupport
import Testing

@testable import HTTPSnapshotTesting

/// The references the HTTP article shows are what `.http` writes for the article's messages.
@Suite struct DocumentedHTTPOutputTests {
  static let article = "Sources/HTTPSnapshotTesting/Documentation.docc/HTTPSnapshots.md"

  /// The two references of the article's `showInvoice` test, from the same request and response.
  @Test func showInvoice() throws {
    let request = HTTPRequest(
      method: .get,
      scheme: "https",
      authority: "api.example.com",
      path: "/invoices/42"
    )
    let response = HTTPResponse(
      status: .ok,
      headerFields: [
        .contentType: "application/json; charset=utf-8",
        .date: "Tue, 24 Nov 2026 04:47:00 GMT",
      ]
    )
    let body = Data(#"{"total":12.5,"id":42,"customer":{"name":"Blob"}}"#.utf8)
    let marker = "`showInvoice.1.http` and `showInvoice.2.http`:"
    let first = try codeBlock(in: Self.article, after: marker)
    #expect(snapshotText(request, as: .http).text == first)
    let second = try codeBlock(in: Self.article, after: marker + "\n\n```\n" + first + "\n```")
    #expect(snapshotText(HTTPMessage(response, body: body), as: .http).text == second)
  }

  /// The gzip example: `{"ok": true}` compressed by Python's `gzip.compress`.
  @Test func aGzipBody() throws {
    let compressed = try EncodedBodyTests.python(
      EncodedBodyTests.gzip,
      input: Data(#"{"ok": true}"#.utf8)
    )
    let response = HTTPResponse(
      status: .ok,
      headerFields: [.contentType: "application/json", .contentEncoding: "gzip"]
    )
    let shown = try codeBlock(
      in: Self.article,
      after: "another level sends other bytes for the same body"
    )
    #expect(snapshotText(HTTPMessage(response, body: compressed), as: .http).text == shown)
  }
}
