import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What ``ReportServer`` allows a client: how much it may send and how long it may take.
package struct HTTPServerLimits: Sendable {
  /// The most bytes of a request's head (request line and fields); more is answered 431.
  package var headBytes = 16_384
  /// The most bytes of a body the server reads; a longer one is answered 413 unread.
  package var bodyBytes = 4 << 20
  /// From the connection's start to the end of its head; then 408.
  package var headSeconds: Double = 10
  /// From the end of the head to the end of the body; then 408.
  package var bodySeconds: Double = 30
  /// For the client to take the whole response; then the connection is closed.
  package var writeSeconds: Double = 30
  /// The most connections served at once; another is answered 503 at once and closed.
  package var connections = 32

  package init() {}
}

/// One accepted connection: reads one request under the deadlines of ``HTTPServerLimits``,
/// answers it with `Connection: close`, and closes. Blocking calls bounded by `poll`, on the
/// thread the server gives it.
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): `recv` and `send` on `[UInt8]`
/// buffers, each call bounded by the buffer's count and preceded by a `poll` with the remaining
/// deadline, with `MSG_NOSIGNAL` so that a client that left never raises SIGPIPE.
struct HTTPConnection {
  let descriptor: Int32
  let limits: HTTPServerLimits
  /// Bytes read past the head: the start of the body.
  private var pending: [UInt8] = []

  init(descriptor: Int32, limits: HTTPServerLimits) {
    self.descriptor = descriptor
    self.limits = limits
  }

  enum HeadOutcome {
    case head(HTTPRequestHead)
    /// Answer this and close.
    case refused(HTTPRequestHead.Refusal)
    /// The client left, or sent nothing before the deadline: close without answering.
    case gone
  }

  /// Reads the head, within `limits.headSeconds` of `start` (a monotonic time in nanoseconds).
  mutating func readHead(since start: UInt64) -> HeadOutcome {
    let deadline = start + UInt64(limits.headSeconds * 1e9)
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    var searched = 0
    while true {
      if let end = HTTPRequestHead.end(in: buffer, searchedUpTo: searched) {
        pending = Array(buffer[end...])
        do {
          return .head(try HTTPRequestHead.parse(buffer[..<end]))
        } catch {
          return .refused(error)
        }
      }
      if buffer.count > limits.headBytes {
        let lineEnded = buffer.contains(UInt8(ascii: "\n"))
        return .refused(
          HTTPRequestHead.Refusal(
            status: lineEnded ? 431 : 414,
            reason: lineEnded
              ? "The request's head is longer than \(limits.headBytes) bytes."
              : "The request line is longer than \(limits.headBytes) bytes."
          )
        )
      }
      switch receive(into: &chunk, upTo: limits.headBytes + 1 - buffer.count, until: deadline) {
      case .bytes(let count):
        searched = buffer.count
        buffer += chunk[..<count]
      case .timedOut:
        return buffer.isEmpty
          ? .gone
          : .refused(
            HTTPRequestHead.Refusal(
              status: 408,
              reason:
                "The request's head did not arrive within \(Self.seconds(limits.headSeconds))."
            )
          )
      case .closed:
        return .gone
      }
    }
  }

  enum BodyOutcome {
    case body(Data)
    case timedOut
    case gone
  }

  /// Reads `count` bytes of body, within `limits.bodySeconds`.
  mutating func readBody(count: Int) -> BodyOutcome {
    let deadline = Self.now() + UInt64(limits.bodySeconds * 1e9)
    var body = Data(pending.prefix(count))
    pending = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while body.count < count {
      switch receive(into: &chunk, upTo: count - body.count, until: deadline) {
      case .bytes(let received): body.append(contentsOf: chunk[..<received])
      case .timedOut: return .timedOut
      case .closed: return .gone
      }
    }
    return .body(body)
  }

  /// Sends all of `bytes` within `limits.writeSeconds`; false when the client left or did not
  /// take them in time.
  @discardableResult
  func write(_ bytes: [UInt8]) -> Bool {
    let deadline = Self.now() + UInt64(limits.writeSeconds * 1e9)
    var sent = 0
    while sent < bytes.count {
      guard wait(for: Int16(POLLOUT), until: deadline) else { return false }
      let count = bytes[sent...].withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Self.noSignal | Int32(MSG_DONTWAIT))
      }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
        return false
      }
      sent += count
    }
    return true
  }

  /// Ends the connection so the client reads the whole answer: the write side is shut first,
  /// and what the client still sends (a body that was not read) is drained for a moment, since
  /// closing with unread bytes would reset the connection and could lose the answer.
  func finish(draining: Bool = true) {
    shutdown(descriptor, Int32(SHUT_WR))
    guard draining else {
      _ = close(descriptor)
      return
    }
    let deadline = Self.now() + 2_000_000_000
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var drained = 0
    while drained < limits.bodyBytes, wait(for: Int16(POLLIN), until: deadline) {
      let count = recv(descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
      if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { break }
      drained += max(count, 0)
    }
    _ = close(descriptor)
  }

  // MARK: - Waiting

  private enum Received {
    case bytes(Int)
    case timedOut
    case closed
  }

  private func receive(
    into chunk: inout [UInt8],
    upTo limit: Int,
    until deadline: UInt64
  ) -> Received {
    while true {
      guard wait(for: Int16(POLLIN), until: deadline) else { return .timedOut }
      let count = recv(descriptor, &chunk, min(chunk.count, max(limit, 1)), Int32(MSG_DONTWAIT))
      if count > 0 { return .bytes(count) }
      if count == 0 { return .closed }
      if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
      return .closed
    }
  }

  /// Waits until the socket is ready for `events` or `deadline` passes; true when ready (or in
  /// error, which the next call reports).
  private func wait(for events: Int16, until deadline: UInt64) -> Bool {
    while true {
      let now = Self.now()
      guard now < deadline else { return false }
      var entry = pollfd(fd: descriptor, events: events, revents: 0)
      let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
      let ready = poll(&entry, 1, milliseconds)
      if ready > 0 { return true }
      if ready < 0, errno != EINTR { return false }
    }
  }

  /// Monotonic nanoseconds.
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  #if os(Linux)
    static let noSignal = Int32(MSG_NOSIGNAL)
  #else
    static let noSignal: Int32 = 0
  #endif
}

/// A response's status line and fields, as RFC 9110 and 9112 spell them.
enum HTTPResponseText {
  /// The reason phrases of RFC 9110 §15 for the statuses this server answers; another code
  /// gets an empty phrase (the status line stays valid).
  static func phrase(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 417: "Expectation Failed"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: ""
    }
  }

  /// The head of a response with `fields`, a `Date`, `Content-Length: contentLength` and
  /// `Connection: close`.
  static func head(
    status: Int,
    fields: [(String, String)],
    contentLength: Int,
    date: Date = Date()
  ) -> [UInt8] {
    var text = "HTTP/1.1 \(status) \(phrase(status))\r\n"
    for (name, value) in fields { text += "\(name): \(value)\r\n" }
    text += "Date: \(imfFixdate(date))\r\n"
    text += "Content-Length: \(contentLength)\r\nConnection: close\r\n\r\n"
    return Array(text.utf8)
  }

  /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7), whatever the locale.
  static func imfFixdate(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
