import ChildProcesses
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Serves a ``ServedReport`` over HTTP/1.1 on `127.0.0.1` only: one request per connection,
/// each on a thread of its own (never Swift's cooperative pool, which a long "Accept all" or a
/// slow client would hold), at most ``HTTPServerLimits/connections`` at once.
///
/// The head is read by ``HTTPRequestHead``, which refuses what RFC 9112 says to refuse (two
/// `Host` lines, obs-fold, a bare LF, differing `Content-Length` values, …) so that the report's
/// `Host` and `Origin` rules judge exactly what the client sent. A body is read only for a
/// `POST` from the page itself, up to ``HTTPServerLimits/bodyBytes``.
///
/// Nothing is written to disk to serve (no lock or token file), so stopping the server, or
/// killing it, leaves nothing behind.
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): `socket`, `bind` and `listen` take
/// a C address, and accepting waits in `poll` on the socket and a wake pipe. A descriptor leaves
/// the open set before it is closed, and ``stop()`` shuts the open ones down under the same lock,
/// so it never touches a reused number.
package final class ReportServer: @unchecked Sendable {
  /// Why the server could not start.
  package struct StartError: Error, CustomStringConvertible {
    package var description: String
    /// Whether the port was taken by another program.
    package var portInUse: Bool
  }

  package let report: ServedReport
  package let limits: HTTPServerLimits
  /// The port it listens on.
  package let port: Int
  private let listener: Int32
  /// Written to by `stop()` to wake the accept loop.
  private let wake: (read: Int32, write: Int32)
  private let lock = NSLock()
  /// The connections being read or answered, which `stop()` shuts.
  private var open: Set<Int32> = []
  /// Connections whose thread has not ended yet, `open` ones and those closing: the limit.
  private var live = 0
  private var started = false
  private var stopped = false
  private let acceptEnded = DispatchSemaphore(value: 0)
  /// Called on the accept loop's thread with each accepted connection, before anything else is
  /// done with it: the package's own tests start a child process there, the worst moment for a
  /// descriptor to leak into one.
  private let afterAccept: (@Sendable (Int32) -> Void)?

  /// Listens on `port` of `127.0.0.1` for `report` (0 picks a free port); serves once started.
  /// `afterAccept` is for tests.
  package init(
    report: ServedReport,
    port: UInt16,
    limits: HTTPServerLimits = HTTPServerLimits(),
    afterAccept: (@Sendable (Int32) -> Void)? = nil
  ) throws(StartError) {
    self.report = report
    self.limits = limits
    self.afterAccept = afterAccept
    #if canImport(Glibc) || canImport(Musl)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else {
      throw StartError(description: "Cannot open a socket: \(Self.errorText()).", portInUse: false)
    }
    var reuse: Int32 = 1
    _ = setsockopt(
      descriptor,
      SOL_SOCKET,
      SO_REUSEADDR,
      &reuse,
      socklen_t(MemoryLayout<Int32>.size)
    )
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(port.bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && listen(descriptor, 64) == 0
          && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound else {
      let code = errno
      close(descriptor)
      if code == EADDRINUSE { throw Self.portInUse(port) }
      throw StartError(
        description: "Cannot listen on 127.0.0.1:\(port): \(Self.errorText(code)).",
        portInUse: false
      )
    }
    // Close-on-exec from the start, as every descriptor here is: a program another thread
    // starts meanwhile must inherit none of them.
    guard let ends = ChildSpawn.makePipe() else {
      close(descriptor)
      throw StartError(description: "Cannot make a pipe: \(Self.errorText()).", portInUse: false)
    }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    // Never block in `accept`: a client that connected and left before it ran would hold it.
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    listener = descriptor
    wake = ends
    self.port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit {
    stop()
    close(wake.read)
    close(wake.write)
  }

  private static func portInUse(_ port: UInt16) -> StartError {
    StartError(
      description: """
        Port \(port) of 127.0.0.1 is already in use by another program. Pass another with \
        --port, or --port 0 for any free one.
        """,
      portInUse: true
    )
  }

  private static func errorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }

  /// Starts answering; returns the port.
  @discardableResult
  package func start() -> Int {
    let first = lock.withLock {
      defer { started = true }
      return !started && !stopped
    }
    guard first else { return port }
    report.listeningPort = port
    let thread = Thread { [self] in
      acceptLoop()
      acceptEnded.signal()
    }
    thread.name = "snapshot-testing report server"
    thread.start()
    return port
  }

  /// Stops listening, ends every open connection, waits (a second at most) for the accept loop
  /// to end, then (three seconds at most) for requests being answered to finish, so that the
  /// process does not end in the middle of an accept. Later calls do nothing.
  package func stop() {
    let (first, wasAccepting) = lock.withLock { () -> (Bool, Bool) in
      defer { stopped = true }
      // Under the lock, so that no descriptor here is closed (and its number reused) meanwhile:
      // a connection leaves `open` before it closes.
      for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
      return (!stopped, started && !stopped)
    }
    guard first else { return }
    if wasAccepting {
      var byte: UInt8 = 1
      _ = write(wake.write, &byte, 1)
      _ = acceptEnded.wait(timeout: .now() + 1)
    }
    close(listener)
    let deadline = HTTPConnection.now() + 3_000_000_000
    while lock.withLock({ live }) > 0, HTTPConnection.now() < deadline { usleep(10_000) }
  }

  // MARK: - Accepting

  private func acceptLoop() {
    while true {
      var entries = [
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&entries, 2, -1)
      if lock.withLock({ stopped }) { return }
      if ready < 0, errno != EINTR { return }
      guard ready > 0, entries[0].revents != 0 else { continue }
      // Close-on-exec as it is made (`accept4`): set afterwards, a program that another thread
      // starts in between would inherit the connection and hold it open.
      let client = ChildSpawn.accept(listener)
      guard client >= 0 else {
        // Out of descriptors: let connections end before trying again.
        if errno == EMFILE || errno == ENFILE { usleep(10_000) }
        continue
      }
      afterAccept?(client)
      let acceptedAt = HTTPConnection.now()
      #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      let admitted = lock.withLock {
        guard !stopped, live < limits.connections else { return false }
        open.insert(client)
        live += 1
        return true
      }
      guard admitted else {
        refuseBusy(client)
        continue
      }
      let thread = Thread { [self] in serve(client, acceptedAt: acceptedAt) }
      thread.name = "snapshot-testing report connection"
      thread.start()
    }
  }

  /// Answers 503 without waiting (the answer fits any socket's buffer) and closes.
  private func refuseBusy(_ client: Int32) {
    let body = Array(
      "This server answers \(limits.connections) connections at once; try again.\n".utf8
    )
    let bytes =
      HTTPResponseText.head(
        status: 503,
        fields: [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "1")],
        contentLength: body.count
      ) + body
    _ = bytes.withUnsafeBytes {
      send(client, $0.baseAddress, $0.count, HTTPConnection.noSignal | Int32(MSG_DONTWAIT))
    }
    shutdown(client, Int32(SHUT_WR))
    // Closing with the request unread would reset the connection, and the client could see the
    // reset instead of the 503: read what has already arrived, without waiting for more.
    var chunk = [UInt8](repeating: 0, count: 16_384)
    for _ in 0..<4 {
      guard recv(client, &chunk, chunk.count, Int32(MSG_DONTWAIT)) > 0 else { break }
    }
    close(client)
  }

  // MARK: - Answering

  private func serve(_ client: Int32, acceptedAt: UInt64) {
    var connection = HTTPConnection(descriptor: client, limits: limits)
    // Whether the answer reached the client; when it did not, nothing is left to drain for.
    var answered = true
    defer {
      lock.withLock { _ = open.remove(client) }
      connection.finish(draining: answered)
      lock.withLock { live -= 1 }
    }
    let head: HTTPRequestHead
    switch connection.readHead(since: acceptedAt) {
    case .gone:
      return
    case .refused(let refusal):
      connection.write(Self.bytes(of: .text(refusal.status, refusal.reason), head: false))
      return
    case .head(let read):
      head = read
    }
    var request = ServedRequest(
      method: head.method,
      path: head.path,
      query: head.query,
      headers: head.headers
    )
    // The absolute form's authority is the request's host (RFC 9112 §3.2.2).
    if let host = head.host { request.headers["host"] = host }
    // A body is read only for a request from the page itself (its Host and Origin): a foreign
    // page's request is refused before its body is read.
    if head.contentLength > 0, head.method == "POST", report.isOwnPage(headers: request.headers) {
      guard head.contentLength <= limits.bodyBytes else {
        let refusal = ServedResponse.text(
          413,
          "The body is \(head.contentLength) bytes; this server reads at most "
            + "\(limits.bodyBytes)."
        )
        connection.write(Self.bytes(of: refusal, head: false))
        return
      }
      if head.expectsContinue {
        connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
      }
      switch connection.readBody(count: head.contentLength) {
      case .body(let body):
        request.body = body
      case .timedOut:
        let refusal = ServedResponse.text(
          408,
          "The body did not arrive within \(HTTPConnection.seconds(limits.bodySeconds))."
        )
        connection.write(Self.bytes(of: refusal, head: false))
        return
      case .gone:
        return
      }
    }
    let response = report.respond(to: request)
    answered = connection.write(Self.bytes(of: response, head: head.method == "HEAD"))
  }

  /// The whole response: status line, fields and (but for `HEAD`) the body.
  static func bytes(of response: ServedResponse, head: Bool) -> [UInt8] {
    let fields = [
      ("Content-Type", response.contentType),
      ("Cache-Control", "no-store"),
      ("X-Content-Type-Options", "nosniff"),
      // No other site may frame the page and trick a click on its buttons.
      ("X-Frame-Options", "DENY"),
      (
        "Content-Security-Policy",
        "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; "
          + "script-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'"
      ),
    ]
    let start = HTTPResponseText.head(
      status: response.status,
      fields: fields,
      contentLength: response.body.count
    )
    return head ? start : start + response.body
  }
}
