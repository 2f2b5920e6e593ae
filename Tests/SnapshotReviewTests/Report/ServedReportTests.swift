import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `report --serve`'s rules, on requests built by hand and on a real socket: what is refused
/// with 403 changes nothing.
@Suite struct ServedReportTests {
  static let port = 4321

  static func served(_ fixture: ReviewFixture) -> (ServedReport, ScriptedConsole) {
    let (session, console) = fixture.session()
    let report = ServedReport(session: session, filters: [], token: "secret-token")
    report.listeningPort = port
    return (report, console)
  }

  static func request(
    _ method: String,
    _ path: String,
    query: [String: String] = [:],
    headers: [String: String] = [:],
    body: String = ""
  ) -> ServedRequest {
    ServedRequest(
      method: method,
      path: path,
      query: query,
      headers: ["Host": "127.0.0.1:\(port)"].merging(headers) { $1 },
      body: Data(body.utf8)
    )
  }

  static func text(_ response: ServedResponse) -> String {
    String(decoding: response.body, as: UTF8.self)
  }

  static func greetingRecord(_ fixture: ReviewFixture) throws -> String {
    let pending = PendingFailures.load(artifactsRoot: fixture.artifacts, packageRoot: fixture.root)
    let failure = pending.failures.first {
      $0.referenceURL?.lastPathComponent == ReviewFixture.greeting
    }
    return try #require(failure).recordURL.path
  }

  @Test func thePageCarriesItsTokenAndButtons() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = Self.served(fixture)
      let response = report.respond(to: Self.request("GET", "/"))
      #expect(response.status == 200)
      let html = Self.text(response)
      #expect(html.contains(#"<meta name="snapshot-testing-token" content="secret-token">"#))
      #expect(html.components(separatedBy: #"data-decision="accept">Accept</button>"#).count == 5)
      #expect(html.components(separatedBy: #"data-decision="reject">Reject</button>"#).count == 5)
      #expect(html.contains(#"<button type="button" id="accept-all">Accept all shown</button>"#))
      let id = try Self.greetingRecord(fixture)
      #expect(html.contains("data-id=\"\(id)\""))
    }
  }

  @Test func aDecisionWithTheTokenAcceptsAsTheCommandDoes() throws {
    try ReviewFixture.with { fixture in
      let (report, console) = Self.served(fixture)
      let id = try Self.greetingRecord(fixture)
      let response = report.respond(
        to: Self.request(
          "POST",
          "/api/resolve",
          headers: ["X-Snapshot-Testing-Token": "secret-token"],
          body: #"{"decision": "accept", "ids": [\#(DevToolsBrowser.quoted(id))]}"#
        )
      )
      #expect(response.status == 200)
      #expect(Self.text(response).contains(#""resolved":true"#))
      #expect(Self.text(response).contains(#""pending":3"#))
      #expect(
        contents(of: fixture.reference(ReviewFixture.greeting)) == Data("Hello\nthere\n".utf8)
      )
      #expect(console.output.contains("Accepted \(fixture.relative(ReviewFixture.greeting))"))
    }
  }

  @Test func acceptAllShownSendsEveryIdAndAnUnknownOneIsNoLongerPending() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = Self.served(fixture)
      let pending = PendingFailures.load(
        artifactsRoot: fixture.artifacts,
        packageRoot: fixture.root
      )
      let ids = pending.failures.map(\.recordURL.path) + ["/etc/passwd"]
      let list = ids.map(DevToolsBrowser.quoted).joined(separator: ", ")
      let response = report.respond(
        to: Self.request(
          "POST",
          "/api/resolve",
          headers: ["X-Snapshot-Testing-Token": "secret-token"],
          body: #"{"decision": "accept", "ids": [\#(list)]}"#
        )
      )
      let text = Self.text(response)
      #expect(text.components(separatedBy: #""resolved":true"#).count == 5)
      #expect(
        text.contains(#"{"id":"/etc/passwd","message":"No longer pending.","resolved":false}"#)
      )
      #expect(text.contains(#""pending":0"#))
      #expect(
        contents(of: fixture.reference(ReviewFixture.fresh)) == Data("brand new\nsnapshot\n".utf8)
      )
      let garbage = report.respond(
        to: Self.request(
          "POST",
          "/api/resolve",
          headers: ["X-Snapshot-Testing-Token": "secret-token"],
          body: "not json"
        )
      )
      #expect(garbage.status == 400)
    }
  }

  @Test func requestsThatWouldChangeFilesWithoutTheTokenAreRefusedAndChangeNothing() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = Self.served(fixture)
      let before = fixture.packageFiles()
      let id = try Self.greetingRecord(fixture)
      let body = #"{"decision": "accept", "ids": [\#(DevToolsBrowser.quoted(id))]}"#
      for headers in [
        [:], ["X-Snapshot-Testing-Token": "guessed"], ["X-Snapshot-Testing-Token": ""],
      ] {
        let response = report.respond(
          to: Self.request("POST", "/api/resolve", headers: headers, body: body)
        )
        #expect(response.status == 403)
        #expect(Self.text(response).contains("must carry the token of the page"))
      }
      #expect(fixture.packageFiles() == before)
      #expect(FileManager.default.fileExists(atPath: id))
    }
  }

  @Test func aForeignHostOrOriginIsRefused() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = Self.served(fixture)
      let before = fixture.packageFiles()
      let id = try Self.greetingRecord(fixture)
      let body = #"{"decision": "reject", "ids": [\#(DevToolsBrowser.quoted(id))]}"#
      let token = ["X-Snapshot-Testing-Token": "secret-token"]
      let foreign: [[String: String]] = [
        ["Host": "evil.example:\(Self.port)"],
        ["Host": "127.0.0.1:9"],
        ["Origin": "http://evil.example"],
        ["Origin": "http://127.0.0.1:9"],
        ["Origin": "null"],
      ]
      for headers in foreign {
        let response = report.respond(
          to: Self.request(
            "POST",
            "/api/resolve",
            headers: token.merging(headers) { $1 },
            body: body
          )
        )
        #expect(response.status == 403, "\(headers)")
        #expect(Self.text(response).hasPrefix("Refused:"))
        #expect(report.respond(to: Self.request("GET", "/", headers: headers)).status == 403)
      }
      let noHost = ServedRequest(method: "GET", path: "/")
      #expect(report.respond(to: noHost).status == 403)
      #expect(fixture.packageFiles() == before)
      #expect(FileManager.default.fileExists(atPath: id))
      let own = Self.request("GET", "/", headers: ["Origin": "http://localhost:\(Self.port)"])
      #expect(report.respond(to: own).status == 200)
    }
  }

  /// The server reads a request's body only when it comes from the served page: a foreign
  /// page's large POST is refused without being buffered.
  @Test func onlyThePagesOwnRequestsHaveTheirBodyRead() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = Self.served(fixture)
      let own = "127.0.0.1:\(report.listeningPort)"
      #expect(report.isOwnPage(headers: ["Host": own, "Origin": "http://\(own)"]))
      #expect(report.isOwnPage(headers: ["host": own]))
      #expect(!report.isOwnPage(headers: ["host": own, "origin": "https://evil.example"]))
      #expect(!report.isOwnPage(headers: ["host": "evil.example"]))
      #expect(!report.isOwnPage(headers: [:]))
    }
  }

  @Test func filesAreServedOnlyFromTheArtifactsFoldersAndThePackage() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = Self.served(fixture)
      let reference = fixture.reference(ReviewFixture.greeting).path
      let escaping = fixture.artifacts.path + "/../../../../etc/passwd"
      for path in ["/etc/passwd", escaping, fixture.root.deletingLastPathComponent().path, ""] {
        let response = report.respond(to: Self.request("GET", "/file", query: ["path": path]))
        #expect(response.status == 403, "\(path)")
        #expect(Self.text(response).contains("outside the artifacts folders and the package"))
      }
      let link = fixture.artifacts.appendingPathComponent("link")
      try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc")
      let throughLink = Self.request("GET", "/file", query: ["path": link.path + "/passwd"])
      #expect(report.respond(to: throughLink).status == 403)
      let inside = report.respond(to: Self.request("GET", "/file", query: ["path": reference]))
      #expect(inside.status == 200 && inside.body == Data("Hello\nWorld\n".utf8))
      #expect(report.respond(to: Self.request("GET", "/elsewhere")).status == 404)
      #expect(report.respond(to: Self.request("DELETE", "/api/resolve")).status == 405)
    }
  }

  @Test func theStateSaysWhenTheArtifactsFolderIsDeleted() throws {
    try ReviewFixture.with { fixture in
      let (report, _) = Self.served(fixture)
      let first = Self.text(report.respond(to: Self.request("GET", "/api/state")))
      #expect(first.contains(#""missingFolders":[]"#) && first.contains(#""pending":4"#))
      try FileManager.default.removeItem(at: fixture.artifacts)
      let second = Self.text(report.respond(to: Self.request("GET", "/api/state")))
      #expect(second.contains(#""missingFolders":["\#(fixture.artifacts.path)"]"#))
      #expect(second.contains(#""pending":0"#))
      #expect(first != second)
    }
  }

  @Test func eachStartHasANewToken() {
    #expect(ServedReport.newToken() != ServedReport.newToken())
    #expect(ServedReport.newToken().count == 64)
  }

  @Test func aPortInUseIsAClearErrorWithItsExitCode() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = fixture.session()
      let busy = try BusyPort()
      #expect(throws: ReportServer.StartError.self) {
        _ = try ReportServer(
          report: ServedReport(session: session, filters: []),
          port: UInt16(busy.port)
        )
      }
      do {
        _ = try ReportServer(
          report: ServedReport(session: session, filters: []),
          port: UInt16(busy.port)
        )
      } catch let error as ReportServer.StartError {
        #expect(error.portInUse)
        #expect(error.description.contains("Port \(busy.port) of 127.0.0.1 is already in use"))
      }
      let status = session.serve(port: UInt16(busy.port), filters: [])
      #expect(status == .unavailable && status.rawValue == 6)
      #expect(console.errors.contains("error: Port \(busy.port) of 127.0.0.1 is already in use"))
    }
  }

  @Test func theServerListensOnLoopbackOnlyAndRefusesOverTheWire() throws {
    try ReviewFixture.with { fixture in
      let served = try ServedProcess(
        in: fixture.root,
        arguments: ["--artifacts", fixture.artifacts.path]
      )
      let port = served.port
      let own = try rawHTTP(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
      #expect(own.hasPrefix("HTTP/1.1 200"))
      #expect(own.lowercased().contains("x-frame-options: deny"))
      let foreign = try rawHTTP(
        port: port,
        "POST /api/resolve HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://evil.example\r\n"
          + "Content-Length: 2\r\n",
        body: "{}"
      )
      #expect(foreign.hasPrefix("HTTP/1.1 403"))
      #expect(served.interrupt() == 0)
    }
  }
}
