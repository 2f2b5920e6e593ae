import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the tests: each path answers a fixed status and body,
/// or never answers (`hang`), so that a page that fails or never loads is a real one.
///
/// Not a server on Swift's cooperative pool: the tests it serves are synchronous Swift Testing
/// tests that hold pool threads while the browser loads from this server (a synchronous assertion
/// waits for its snapshot). On 2 cores two such tests would leave such a server no thread to
/// answer on, the starvation the command strategies were moved off the pool for. So it accepts and
/// answers on threads of its own, as the review tool's report server does.
final class LoopbackServer: @unchecked Sendable {
  enum Route: Sendable {
    case respond(status: Int, contentType: String, body: String)
    /// Accepts the connection and never answers.
    case hang
    /// Sends the headers and part of the body, then nothing more.
    case stall(contentType: String, partialBody: String)
    /// Answers 200 with `body`, after `seconds`.
    case delayed(seconds: Double, contentType: String, body: String)
  }

  let port: UInt16
  private let socketDescriptor: Int32
  private let routes: [String: Route]
  private let lock = NSLock()
  private var held: [Int32] = []
  private var stopped = false
  private var requested: [String] = []

  /// The paths asked for so far, in order.
  var requestedPaths: [String] { lock.withLock { requested } }

  /// Starts a server on a free port.
  init(routes: [String: Route]) throws {
    self.routes = routes
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw ServerError("socket: errno \(errno)") }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, 64) == 0 else {
      close(descriptor)
      throw ServerError("bind/listen: errno \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    port = UInt16(bigEndian: address.sin_port)
    socketDescriptor = descriptor
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// The URL of `path` on this server.
  func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }

  func stop() {
    let connections = lock.withLock { () -> [Int32] in
      stopped = true
      defer { held = [] }
      return held
    }
    shutdown(socketDescriptor, Int32(SHUT_RDWR))
    close(socketDescriptor)
    for connection in connections { close(connection) }
  }

  private func acceptLoop() {
    while true {
      let connection = accept(socketDescriptor, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        return
      }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    var request = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.contains(Data("\r\n\r\n".utf8)) {
      let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
      if count <= 0 { close(connection); return }
      request.append(contentsOf: buffer[0..<count])
    }
    let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
    let parts = line.split(separator: " ")
    let path = parts.count > 1 ? String(parts[1]) : "/"
    lock.withLock { requested.append(path) }
    var route = routes[path] ?? .respond(status: 404, contentType: "text/plain", body: "not found")
    if case .delayed(let seconds, let contentType, let body) = route {
      Thread.sleep(forTimeInterval: seconds)
      route = .respond(status: 200, contentType: contentType, body: body)
    }
    switch route {
    case .delayed: break
    case .respond(let status, let contentType, let body):
      let bytes = Data(body.utf8)
      let head = """
        HTTP/1.1 \(status) Status\r
        Content-Type: \(contentType)\r
        Content-Length: \(bytes.count)\r
        Connection: close\r
        \r

        """
      sendAll(Data(head.utf8) + bytes, on: connection)
      close(connection)
    case .hang:
      hold(connection)
    case .stall(let contentType, let partialBody):
      let head = """
        HTTP/1.1 200 OK\r
        Content-Type: \(contentType)\r
        Content-Length: 1000000\r
        \r

        """
      sendAll(Data(head.utf8) + Data(partialBody.utf8), on: connection)
      hold(connection)
    }
  }

  private func hold(_ connection: Int32) {
    let isStopped = lock.withLock { () -> Bool in
      if !stopped { held.append(connection) }
      return stopped
    }
    if isStopped { close(connection) }
  }

  private func sendAll(_ data: Data, on connection: Int32) {
    data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        // MSG_NOSIGNAL: a browser that hung up must not kill the test process with SIGPIPE.
        let written = send(connection, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

struct ServerError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
