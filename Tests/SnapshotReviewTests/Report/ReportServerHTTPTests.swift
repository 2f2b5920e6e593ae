import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The report's own HTTP/1.1 server over a raw socket on loopback: a head RFC 9112 says to
/// refuse is refused before the report sees it (two `Host` lines first of all), a slow or
/// over-long request cannot hold the server, and a body is read only up to its limit.
///
/// The server runs in the test process, with short deadlines: it answers on threads of its own,
/// not on the concurrency pool the other tests share.
@Suite struct ReportServerHTTPTests {
  static var limits: HTTPServerLimits {
    var limits = HTTPServerLimits()
    limits.headSeconds = 1
    limits.bodySeconds = 1
    limits.writeSeconds = 2
    limits.bodyBytes = 65_536
    limits.connections = 4
    return limits
  }

  /// Serves `fixture`'s report on a free port for the length of `body`.
  static func serving<R>(
    _ fixture: ReviewFixture,
    limits: HTTPServerLimits = Self.limits,
    _ body: (ReportServer) throws -> R
  ) throws -> R {
    let (session, _) = fixture.session()
    let report = ServedReport(session: session, filters: [], token: "secret-token")
    let server = try ReportServer(report: report, port: 0, limits: limits)
    server.start()
    defer { server.stop() }
    return try body(server)
  }

  static func resolveBody(_ id: String) -> String {
    #"{"decision": "accept", "ids": [\#(DevToolsBrowser.quoted(id))]}"#
  }

  @Test func twoHostLinesAre400AndChangeNothing() throws {
    try ReviewFixture.with { fixture in
      try Self.serving(fixture) { server in
        let id = try ServedReportTests.greetingRecord(fixture)
        let before = fixture.packageFiles()
        let body = Self.resolveBody(id)
        let own = "Host: 127.0.0.1:\(server.port)\r\n"
        // Either order: a parser that keeps the first or the last value would let one through.
        for hosts in [own + "Host: evil.example\r\n", "Host: evil.example\r\n" + own] {
          let response = try RawClient.exchange(
            port: server.port,
            "POST /api/resolve HTTP/1.1\r\n\(hosts)X-Snapshot-Testing-Token: secret-token\r\n"
              + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
          )
          #expect(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(response)")
          #expect(
            response.hasSuffix("The request has 2 “Host” header lines; it may have one.\n")
          )
        }
        #expect(fixture.packageFiles() == before)
        #expect(FileManager.default.fileExists(atPath: id))
        // The same request with one Host is carried out: the refusal above was the Host lines.
        let accepted = try RawClient.exchange(
          port: server.port,
          "POST /api/resolve HTTP/1.1\r\n\(own)X-Snapshot-Testing-Token: secret-token\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        #expect(accepted.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(!FileManager.default.fileExists(atPath: id))
      }
    }
  }

  @Test(arguments: [
    ("GET / HTTP/1.1\r\nHost: {own}\r\nX-A: 1\r\n folded\r\n\r\n", "400 Bad Request", "(obs-fold)"),
    ("GET / HTTP/1.1\r\nHost : {own}\r\n\r\n", "400 Bad Request", "between its name and its colon"),
    ("GET / HTTP/1.1\nHost: {own}\n\n", "400 Bad Request", "ends in a bare LF"),
    (
      "GET / HTTP/1.1\r\nHost: {own}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
      "400 Bad Request", "differing Content-Length"
    ),
    (
      "POST / HTTP/1.1\r\nHost: {own}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "501 Not Implemented", "Transfer-Encoding"
    ),
    (
      "GET / HTTP/1.1\r\nOrigin: http://{own}\r\nOrigin: http://evil.example\r\n"
        + "Host: {own}\r\n\r\n",
      "400 Bad Request", "2 “Origin” header lines"
    ),
    ("GET / HTTP/1.1\r\n\r\n", "400 Bad Request", "must have a Host header"),
    (
      "GET / HTTP/3.0\r\nHost: {own}\r\n\r\n", "505 HTTP Version Not Supported",
      "HTTP/3 is not supported"
    ),
    (
      "GET http://evil.example/ HTTP/1.1\r\nHost: {own}\r\n\r\n", "403 Forbidden",
      "Refused: the Host header"
    ),
    ("GET / HTTP/1.0\r\n\r\n", "403 Forbidden", "Refused: the Host header"),
  ])
  func aMalformedHeadIsRefusedOverTheWire(head: String, status: String, reason: String) throws {
    try ReviewFixture.with { fixture in
      try Self.serving(fixture) { server in
        let text = head.replacingOccurrences(of: "{own}", with: "127.0.0.1:\(server.port)")
        let response = try RawClient.exchange(port: server.port, text)
        #expect(response.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(response.prefix(300))")
        #expect(response.contains(reason), "\(response)")
        #expect(response.contains("\r\nConnection: close\r\n"))
      }
    }
  }

  /// One byte every 100 ms never ends the head: the deadline is the head's, not each read's.
  @Test func aSlowClientIsAnswered408AtItsDeadlineAndHoldsNoOneElse() throws {
    try ReviewFixture.with { fixture in
      try Self.serving(fixture) { server in
        let slow = try RawClient(port: server.port)
        let start = Date()
        try slow.send("GET / HTTP/1.1\r\nHo")
        // Meanwhile another client is answered at once.
        let other = try RawClient.exchange(
          port: server.port,
          "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        )
        #expect(other.hasPrefix("HTTP/1.1 200 OK\r\n"))
        var answer = ""
        while answer.isEmpty, Date().timeIntervalSince(start) < 5 {
          try? slow.send("x")
          Thread.sleep(forTimeInterval: 0.1)
          answer = slow.available()
        }
        answer += slow.response(within: 2)
        let elapsed = Date().timeIntervalSince(start)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(answer.hasSuffix("The request's head did not arrive within 1 s.\n"))
        #expect(elapsed >= 0.9 && elapsed < 3, "answered after \(elapsed) s")
      }
    }
  }

  @Test func anOverlongHeadIs431AndAnOverlongRequestLine414() throws {
    try ReviewFixture.with { fixture in
      try Self.serving(fixture) { server in
        let longField = try RawClient.exchange(
          port: server.port,
          "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Long: "
            + String(repeating: "a", count: 20_000) + "\r\n\r\n"
        )
        #expect(longField.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(longField.hasSuffix("The request's head is longer than 16384 bytes.\n"))
        let longLine = try RawClient.exchange(
          port: server.port,
          "GET /" + String(repeating: "a", count: 20_000)
        )
        #expect(longLine.hasPrefix("HTTP/1.1 414 URI Too Long\r\n"), "\(longLine.prefix(200))")
      }
    }
  }

  @Test func aBodyOverTheLimitIs413WithoutBeingRead() throws {
    try ReviewFixture.with { fixture in
      // A body deadline far beyond the wait below: an answer in time did not wait for the body.
      var limits = Self.limits
      limits.bodySeconds = 10
      try Self.serving(fixture, limits: limits) { server in
        let client = try RawClient(port: server.port)
        try client.send(
          "POST /api/resolve HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "X-Snapshot-Testing-Token: secret-token\r\nContent-Length: 100000000\r\n\r\n{"
        )
        let start = Date()
        let response = client.response(within: 5)
        #expect(response.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"), "\(response)")
        #expect(
          response.hasSuffix("The body is 100000000 bytes; this server reads at most 65536.\n")
        )
        #expect(Date().timeIntervalSince(start) < 5, "the answer waited for the body")
      }
    }
  }

  @Test func aBodyThatStopsArrivingIs408() throws {
    try ReviewFixture.with { fixture in
      try Self.serving(fixture) { server in
        let client = try RawClient(port: server.port)
        try client.send(
          "POST /api/resolve HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "X-Snapshot-Testing-Token: secret-token\r\nContent-Length: 100\r\n\r\n{\"deci"
        )
        let response = client.response(within: 5)
        #expect(response.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(response)")
        #expect(response.hasSuffix("The body did not arrive within 1 s.\n"))
      }
    }
  }

  /// curl sends `Expect: 100-continue` before a body over 1 KiB and waits for the go-ahead.
  @Test func aClientThatExpects100ContinueGetsItThenItsAnswer() throws {
    try ReviewFixture.with { fixture in
      try Self.serving(fixture) { server in
        let body = #"{"decision": "reject", "ids": ["/nowhere"]}"#
        let client = try RawClient(port: server.port)
        try client.send(
          "POST /api/resolve HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "X-Snapshot-Testing-Token: secret-token\r\nExpect: 100-continue\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n"
        )
        var interim = ""
        let start = Date()
        while !interim.hasSuffix("\r\n\r\n"), Date().timeIntervalSince(start) < 3 {
          interim += client.available()
          Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
        try client.send(body)
        let response = client.response(within: 5)
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(response)")
        #expect(
          response.contains(#"{"id":"/nowhere","message":"No longer pending.","resolved":false}"#)
        )
      }
    }
  }

  @Test func connectionsBeyondTheLimitAre503UntilOneEnds() throws {
    try ReviewFixture.with { fixture in
      // A head deadline far beyond the wait below: only the client's leaving frees its place.
      var limits = Self.limits
      limits.headSeconds = 10
      try Self.serving(fixture, limits: limits) { server in
        // Idle connections, each holding one of the four places until it leaves.
        var idle = try (0..<4).map { _ in try RawClient(port: server.port) }
        let refused = try RawClient.exchange(
          port: server.port,
          "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        )
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(refused)")
        #expect(refused.contains("\r\nRetry-After: 1\r\n"))
        #expect(refused.hasSuffix("This server answers 4 connections at once; try again.\n"))
        idle.removeFirst()
        var answer = ""
        let start = Date()
        while !answer.hasPrefix("HTTP/1.1 200"), Date().timeIntervalSince(start) < 0.8 {
          answer = try RawClient.exchange(
            port: server.port,
            "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
          )
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "a place was not freed: \(answer)")
        _ = idle
      }
    }
  }

  /// A client that asks for a large file and never reads it holds its place for the write
  /// deadline only.
  @Test func aClientThatDoesNotReadItsAnswerIsLetGoAtTheWriteDeadline() throws {
    try ReviewFixture.with { fixture in
      var limits = Self.limits
      limits.connections = 1
      limits.writeSeconds = 1
      let large = fixture.root.appendingPathComponent("large.bin")
      try Data(count: 32 << 20).write(to: large)
      try Self.serving(fixture, limits: limits) { server in
        let own = "Host: 127.0.0.1:\(server.port)\r\n"
        let stuck = try RawClient(port: server.port)
        let start = Date()
        try stuck.send("GET /file?path=\(large.path) HTTP/1.1\r\n\(own)\r\n")
        Thread.sleep(forTimeInterval: 0.3)
        let busy = try RawClient.exchange(
          port: server.port,
          "GET /api/state HTTP/1.1\r\n\(own)\r\n"
        )
        #expect(
          busy.hasPrefix("HTTP/1.1 503 "),
          "the stuck client held no place: \(busy.prefix(80))"
        )
        var answer = ""
        while !answer.hasPrefix("HTTP/1.1 200"), Date().timeIntervalSince(start) < 5 {
          Thread.sleep(forTimeInterval: 0.1)
          answer = try RawClient.exchange(
            port: server.port,
            "GET /api/state HTTP/1.1\r\n\(own)\r\n"
          )
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.prefix(80))")
        #expect(elapsed >= 0.9 && elapsed < 3, "let go after \(elapsed) s")
      }
    }
  }

  @Test func headAnswersTheFieldsOfGetWithoutItsBody() throws {
    try ReviewFixture.with { fixture in
      try Self.serving(fixture) { server in
        let head = try RawClient.exchange(
          port: server.port,
          "HEAD / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        )
        let get = try RawClient.exchange(
          port: server.port,
          "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        )
        let getHead = try #require(get.components(separatedBy: "\r\n\r\n").first)
        #expect(head.hasSuffix("\r\n\r\n"))
        func length(_ text: String) -> String? {
          text.components(separatedBy: "\r\n").first { $0.hasPrefix("Content-Length: ") }
        }
        #expect(length(head) != nil && length(head) == length(getHead))
        #expect(length(head) != "Content-Length: 0")
      }
    }
  }

  @Test func stoppingEndsOpenConnectionsAndListening() throws {
    try ReviewFixture.with { fixture in
      let (session, _) = fixture.session()
      // A head deadline far beyond the wait below: only `stop()` can end the connection in time.
      var limits = Self.limits
      limits.headSeconds = 10
      let server = try ReportServer(
        report: ServedReport(session: session, filters: []),
        port: 0,
        limits: limits
      )
      server.start()
      let open = try RawClient(port: server.port)
      // Accepted (and counted) before `stop()`, so that it is an open connection that stops.
      Thread.sleep(forTimeInterval: 0.2)
      let start = Date()
      server.stop()
      #expect(open.response(within: 2) == "")
      // Far below the head's 10 s: only `stop()` ended it.
      #expect(Date().timeIntervalSince(start) < 5)
      #expect(throws: (any Error).self) { try RawClient(port: server.port) }
    }
  }
}
