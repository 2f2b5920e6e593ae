import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// With 5,000 pending failures the served page used to render every one at once (about 2 s, a
/// page too heavy to use). It now shows ``ServedReport/pageSize`` failures a page, with links
/// to the next and previous pages, and every failure is on one of them.
@Suite struct ServedReportPagingTests {
  /// 5,000 copies of a fixture record besides its own four: 5,004 pending failures.
  static func fiveThousandFailures(_ fixture: ReviewFixture) throws -> Int {
    let (folder, record) = try ServedReportPollTests.recordsFolderAndARecord(fixture)
    for index in 0..<5_000 {
      try record.write(to: folder.appendingPathComponent("copy-\(index).json"))
    }
    ServedReportPollTests.settle()
    return 5_004
  }

  static func entries(_ html: String) -> Int {
    html.components(separatedBy: "<article class=\"entry\"").count - 1
  }

  /// The `data-id` of each entry of a page (the path of its record).
  static func ids(_ html: String) -> [String] {
    html.components(separatedBy: " data-id=\"").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
  }

  /// The address of the page's `rel="next"` link, if it has one.
  static func next(_ html: String) -> String? {
    guard let link = html.range(of: "\" rel=\"next\"") else { return nil }
    let start = html[..<link.lowerBound].range(of: "href=\"", options: .backwards)!.upperBound
    return String(html[start..<link.lowerBound])
  }

  static func page(_ report: ServedReport, _ number: String? = nil) -> ServedResponse {
    let query = number.map { ["page": $0] } ?? [:]
    return report.respond(to: ServedReportTests.request("GET", "/", query: query))
  }

  @Test func theFirstPageShowsOnePageOfFailuresAndLinksToTheNext() throws {
    try ReviewFixture.with { fixture in
      let total = try Self.fiveThousandFailures(fixture)
      let (report, _) = ServedReportTests.served(fixture)
      let html = ServedReportTests.text(Self.page(report))
      #expect(Self.entries(html) == ServedReport.pageSize)
      #expect(html.contains("<title>\(total) pending snapshot failures</title>"))
      #expect(html.contains("Failures 1–100 of \(total) (page 1 of 51)"))
      #expect(Self.next(html) == "/?page=2")
      #expect(!html.contains("rel=\"prev\""))
      // Entries keep their place in the whole list: the second page starts at 101.
      let second = ServedReportTests.text(Self.page(report, "2"))
      #expect(second.contains("id=\"failure-101\""))
      #expect(!second.contains("id=\"failure-100\""))
      #expect(second.contains("<a href=\"/?page=1\" rel=\"prev\">Previous 100</a>"))
      // Paging reads the records once while they are unchanged.
      #expect(report.stateScans == 1)
    }
  }

  @Test func theLastPageHoldsTheRestAndAPageBeyondItIsTheLast() throws {
    try ReviewFixture.with { fixture in
      let total = try Self.fiveThousandFailures(fixture)
      let (report, _) = ServedReportTests.served(fixture)
      let last = ServedReportTests.text(Self.page(report, "51"))
      #expect(Self.entries(last) == total - 50 * ServedReport.pageSize)
      #expect(Self.next(last) == nil)
      #expect(last.contains("Failures 5001–5004 of 5004 (page 51 of 51)"))
      #expect(ServedReportTests.text(Self.page(report, "900")) == last)
    }
  }

  @Test(arguments: ["0", "-1", "two", "1.5", ""])
  func aPageThatIsNoWholeNumberIsRefusedNamingIt(_ value: String) throws {
    try ReviewFixture.with { fixture in
      let (report, _) = ServedReportTests.served(fixture)
      let response = Self.page(report, value)
      #expect(response.status == 400)
      #expect(
        ServedReportTests.text(response)
          == "The page must be a whole number from 1 (as in /?page=2); got “\(value)”.\n"
      )
    }
  }

  @Test func aFewFailuresAreOnePageWithoutLinks() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = ServedReportTests.served(fixture)
      let html = ServedReportTests.text(Self.page(report))
      #expect(Self.entries(html) == 4)
      #expect(!html.contains("<nav class=\"pages\">"))
    }
  }

  /// Through the real server on loopback, as a browser would: the first answer holds one page,
  /// and following the `next` links reaches every failure exactly once.
  @Test func overHTTPEveryFailureIsReachedPageByPage() throws {
    try ReviewFixture.with { fixture in
      let total = try Self.fiveThousandFailures(fixture)
      let served = try ServedProcess(
        in: fixture.root,
        arguments: ["--artifacts", fixture.artifacts.path]
      )
      let port = served.port
      func get(_ path: String) throws -> String {
        let response = try rawHTTP(
          port: port,
          "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        )
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(path): \(response.prefix(200))")
        return response
      }
      var html = try get("/")
      #expect(Self.entries(html) == ServedReport.pageSize)
      var seen = Self.ids(html)
      var pages = 1
      while let next = Self.next(html), pages <= 60 {
        html = try get(next)
        seen += Self.ids(html)
        pages += 1
      }
      #expect(pages == 51)
      #expect(seen.count == total)
      #expect(Set(seen).count == total, "a failure was shown twice")
      let records = try FileManager.default.contentsOfDirectory(
        at: ArtifactsFolder(root: fixture.artifacts).failureRecordsFolder,
        includingPropertiesForKeys: nil
      ).filter { $0.pathExtension == "json" }
      #expect(
        Set(seen.map { URL(fileURLWithPath: $0).lastPathComponent })
          == Set(records.map(\.lastPathComponent))
      )
      #expect(served.interrupt() == 0)
    }
  }
}
