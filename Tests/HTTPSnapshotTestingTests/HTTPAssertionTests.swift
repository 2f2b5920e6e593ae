import Foundation
import HTTPTypes
import SnapshotTesting
import TestSupport
import Testing
import XCTest

@testable import HTTPSnapshotTesting

/// `.http` through the assertions, against references committed under `__Snapshots__`, from
/// Swift Testing and from XCTest.
@Suite struct HTTPAssertionTests {
  static let invoice = HTTPMessage(
    HTTPResponse(
      status: .ok,
      headerFields: [
        .contentType: "application/json; charset=utf-8",
        .date: "Tue, 24 Nov 2026 04:47:00 GMT",
        .eTag: "\"33a64df5\"",
      ]
    ),
    body: Data(#"{"total":12.5,"id":42,"customer":{"name":"Blob","id":1},"lines":[]}"#.utf8)
  )

  @Test func invoiceResponse() {
    assertSnapshot(of: Self.invoice, as: .http)
  }

  @Test func createInvoiceRequest() {
    let request = HTTPRequest(
      method: .post,
      scheme: "https",
      authority: "api.example.com",
      path: "/invoices",
      headerFields: [.contentType: "application/x-www-form-urlencoded", .accept: "*/*"]
    )
    assertSnapshot(
      of: HTTPMessage(request, body: Data("customer=1&memo=first+invoice".utf8)),
      as: .http
    )
  }

  @Test func responseHead() {
    assertSnapshot(of: HTTPTextTests.notFound, as: .http)
  }

  @Test func aMismatchFailsWithTheLineDiff() {
    var changed = Self.invoice
    changed.body = Data(#"{"id":43}"#.utf8)
    withKnownIssue {
      assertSnapshot(of: changed, as: .http, named: "mismatch", record: .never)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("does not match reference") && text.contains("+  \"id\" : 43")
    }
  }

  @Test func expectSnapshotReturnsWhetherItMatched() {
    #expect(expectSnapshot(of: Self.invoice, as: .http, named: "mismatch", record: .never))
  }

  @Test func aMissingReferenceIsNotWrittenWithRecordModeNever() {
    withTemporaryFolder { folder in
      let message = verifySnapshot(
        of: Self.invoice,
        as: .http,
        record: .never,
        snapshotDirectory: folder.path,
        testName: "missing"
      )
      #expect(message?.contains("No reference was found") == true)
      #expect(files(under: folder) == [])
    }
  }

  @Test func theReferenceIsADotHTTPFile() throws {
    try withTemporaryFolder { folder in
      _ = verifySnapshot(
        of: Self.invoice,
        as: .http,
        record: .all,
        snapshotDirectory: folder.path,
        testName: "recorded"
      )
      #expect(files(under: folder) == ["recorded.1.http"])
      let recorded = try String(
        contentsOf: folder.appendingPathComponent("recorded.1.http"),
        encoding: .utf8
      )
      #expect(recorded == snapshotText(Self.invoice, as: .http).text)
    }
  }
}

final class HTTPAssertionXCTests: FailureCapturingTestCase {
  func testInvoiceResponse() {
    assertSnapshot(of: HTTPAssertionTests.invoice, as: .http)
  }

  func testAMismatchFailsWithTheLineDiff() {
    var changed = HTTPAssertionTests.invoice
    changed.body = Data(#"{"id":43}"#.utf8)
    let failures = capturingFailures {
      assertSnapshot(of: changed, as: .http, named: "mismatch", record: .never)
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.message.contains("does not match reference") == true)
    XCTAssertTrue(failures.first?.message.contains("−  \"customer\" : {") == true)
  }
}
