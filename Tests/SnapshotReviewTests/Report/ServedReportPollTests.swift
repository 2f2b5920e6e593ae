import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The served page polls `/api/state` every second. With 5,000 pending failures each poll used to
/// list and read every record (7–8 s); now it answers from what it last read while the records
/// folders are unchanged, and reads them again as soon as one is written or removed.
@Suite struct ServedReportPollTests {
  struct State: Decodable, Equatable {
    var stamp: String
    var pending: Int
  }

  static func poll(_ report: ServedReport) throws -> State {
    let response = report.respond(to: ServedReportTests.request("GET", "/api/state"))
    #expect(response.status == 200)
    return try JSONDecoder().decode(State.self, from: response.body)
  }

  /// Sets a folder's modification time an hour back, as extracting an archive of an older run
  /// does; its status-change time stays now.
  static func age(_ folder: URL) {
    let hourAgo = timeval(tv_sec: time(nil) - 3600, tv_usec: 0)
    var times = [hourAgo, hourAgo]
    #expect(utimes(folder.path, &times) == 0, "could not age \(folder.path)")
  }

  /// Waits until the folders' last change is older than the settling time, so that a scan is
  /// trusted.
  static func settle() {
    Thread.sleep(forTimeInterval: Double(ServedReport.settleNanoseconds) / 1e9 + 0.1)
  }

  /// The fixture's records folder, and the bytes of one of its records, to write copies of.
  static func recordsFolderAndARecord(_ fixture: ReviewFixture) throws -> (URL, Data) {
    let greeting = try ServedReportTests.greetingRecord(fixture)
    return (
      ArtifactsFolder(root: fixture.artifacts).failureRecordsFolder,
      try Data(contentsOf: URL(fileURLWithPath: greeting))
    )
  }

  @Test func withFiveThousandFailuresAnUnchangedPollReadsNoRecord() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = ServedReportTests.served(fixture)
      let (folder, record) = try Self.recordsFolderAndARecord(fixture)
      for index in 0..<5_000 {
        try record.write(to: folder.appendingPathComponent("copy-\(index).json"))
      }
      Self.settle()

      let first = try Self.poll(report)
      #expect(first.pending == 5_004)
      #expect(report.stateScans == 1)
      for _ in 0..<10 {
        #expect(try Self.poll(report) == first)
      }
      #expect(report.stateScans == 1, "an unchanged poll read the records again")
    }
  }

  @Test func aRecordWrittenOrRemovedIsNoticedAtTheNextPoll() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = ServedReportTests.served(fixture)
      let (folder, record) = try Self.recordsFolderAndARecord(fixture)
      Self.settle()
      let first = try Self.poll(report)
      #expect(try Self.poll(report) == first)
      #expect(report.stateScans == 1)

      // A record written as the tool writes one (renamed into place)…
      try AtomicFile.write(record, to: folder.appendingPathComponent("new.json"))
      let added = try Self.poll(report)
      #expect(added.pending == first.pending + 1)
      #expect(added.stamp != first.stamp)

      // …one removed…
      try FileManager.default.removeItem(at: folder.appendingPathComponent("new.json"))
      let removed = try Self.poll(report)
      #expect(removed.pending == first.pending)
      #expect(removed.stamp != added.stamp)

      // …and one arriving with the folder's modification time set back, as an archive
      // extracted over it leaves it: an older time is a change too.
      Self.settle()
      #expect(try Self.poll(report) == removed)
      try AtomicFile.write(record, to: folder.appendingPathComponent("extracted.json"))
      Self.age(folder)
      #expect(try Self.poll(report).pending == first.pending + 1)
    }
  }

  /// `report --serve` reads the records once as it starts (`prepare()`, on a thread of its own),
  /// so the first page opened a moment later answers from that reading; a page asked for while
  /// that reading runs waits for it instead of reading every record a second time.
  @Test func theFirstPageAnswersFromTheReadingStartedAtLaunch() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = ServedReportTests.served(fixture)
      let (folder, record) = try Self.recordsFolderAndARecord(fixture)
      for index in 0..<2_000 {
        try record.write(to: folder.appendingPathComponent("copy-\(index).json"))
      }
      Self.settle()
      let prepared = DispatchSemaphore(value: 0)
      Thread {
        report.prepare()
        prepared.signal()
      }.start()
      Thread.sleep(forTimeInterval: 0.05)
      let page = report.respond(to: ServedReportTests.request("GET", "/"))
      #expect(page.status == 200)
      prepared.wait()
      #expect(report.stateScans == 1, "the page and the launch each read every record")
      #expect(try Self.poll(report).pending == 2_004)
      #expect(report.stateScans == 1)
    }
  }
}
