import Foundation
import Testing

@testable import SnapshotReview

/// The served report's status lines carry RFC 9110's reason phrases, and every response says
/// when it was made and that the connection closes.
struct ReportServerStatusTests {
  @Test(arguments: [
    (200, "OK"), (400, "Bad Request"), (403, "Forbidden"), (404, "Not Found"),
    (405, "Method Not Allowed"), (408, "Request Timeout"), (413, "Content Too Large"),
    (414, "URI Too Long"), (417, "Expectation Failed"), (431, "Request Header Fields Too Large"),
    (501, "Not Implemented"), (503, "Service Unavailable"), (505, "HTTP Version Not Supported"),
  ])
  func everyStatusTheServerAnswersHasItsPhrase(code: Int, phrase: String) {
    #expect(HTTPResponseText.phrase(code) == phrase)
    let head = String(
      decoding: HTTPResponseText.head(status: code, fields: [], contentLength: 0),
      as: UTF8.self
    )
    #expect(head.hasPrefix("HTTP/1.1 \(code) \(phrase)\r\n"))
  }

  @Test func aStatusWithoutAPhraseKeepsAValidStatusLine() {
    let head = String(
      decoding: HTTPResponseText.head(status: 299, fields: [], contentLength: 0),
      as: UTF8.self
    )
    #expect(head.hasPrefix("HTTP/1.1 299 \r\n"))
  }

  @Test func theDateIsRFC9110sFixedFormInGMT() {
    #expect(
      HTTPResponseText.imfFixdate(Date(timeIntervalSince1970: 784_111_777))
        == "Sun, 06 Nov 1994 08:49:37 GMT"
    )
    let head = String(
      decoding: HTTPResponseText.head(
        status: 200,
        fields: [("Content-Type", "text/plain")],
        contentLength: 3,
        date: Date(timeIntervalSince1970: 0)
      ),
      as: UTF8.self
    )
    #expect(
      head
        == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
        + "Date: Thu, 01 Jan 1970 00:00:00 GMT\r\nContent-Length: 3\r\nConnection: close\r\n\r\n"
    )
  }
}
