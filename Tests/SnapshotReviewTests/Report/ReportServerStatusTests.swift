import FlyingFox
import Testing

@testable import SnapshotReview

/// The served report's statuses are spelled by FlyingFox, not by a table of our own.
struct ReportServerStatusTests {
  @Test(arguments: [
    (200, "OK"), (400, "Bad Request"), (403, "Forbidden"), (404, "Not Found"),
    (405, "Method Not Allowed"),
  ])
  func everyStatusTheReportAnswersHasItsPhrase(code: Int, phrase: String) {
    let status = ReportServer.statusCode(code)
    #expect(status.code == code)
    #expect(status.phrase == phrase)
  }

  @Test func aStatusFlyingFoxDoesNotListKeepsItsCode() {
    #expect(ReportServer.statusCode(299).code == 299)
  }
}
