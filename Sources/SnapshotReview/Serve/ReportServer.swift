import FlyingFox
import FlyingSocks
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Serves a ``ServedReport`` over HTTP on `127.0.0.1` only, with FlyingFox.
///
/// Nothing is written to disk to serve (no lock or token file), so stopping the server, or
/// killing it, leaves nothing behind.
package final class ReportServer: Sendable {
  /// Why the server could not start.
  package struct StartError: Error, CustomStringConvertible {
    package var description: String
    /// Whether the port was taken by another program.
    package var portInUse: Bool
  }

  package let report: ServedReport
  private let server: HTTPServer
  private let requestedPort: UInt16
  private let running = RunningTask()

  /// A server for `report` on `port` of `127.0.0.1`; 0 picks a free port.
  package init(report: ServedReport, port: UInt16) throws(StartError) {
    self.report = report
    self.requestedPort = port
    let address: sockaddr_in
    do {
      address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
    } catch {
      throw StartError(description: "Cannot listen on 127.0.0.1: \(error)", portInUse: false)
    }
    if port != 0, Self.isInUse(port) {
      throw Self.portInUse(port)
    }
    let served = report
    server = HTTPServer(
      address: address,
      timeout: 30,
      logger: .disabled,
      handler: ClosureHTTPHandler { request in
        var headers: [String: String] = [:]
        for (header, value) in request.headers { headers[header.rawValue] = value }
        // A body is read only for a request from the page itself (its Host and Origin): a
        // foreign page's request is refused before its body is read.
        var body = Data()
        if request.method == .POST, served.isOwnPage(headers: headers) {
          body = try await request.bodyData
        }
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value }
        let response = served.respond(
          to: ServedRequest(
            method: request.method.rawValue,
            path: request.path,
            query: query,
            headers: headers,
            body: body
          )
        )
        return HTTPResponse(
          statusCode: Self.statusCode(response.status),
          headers: [
            .contentType: response.contentType,
            HTTPHeader("Cache-Control"): "no-store",
            HTTPHeader("X-Content-Type-Options"): "nosniff",
            // No other site may frame the page and trick a click on its buttons.
            HTTPHeader("X-Frame-Options"): "DENY",
            HTTPHeader("Content-Security-Policy"):
              "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; "
              + "script-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
          ],
          body: request.method == .HEAD ? Data() : response.body
        )
      }
    )
  }

  /// Whether another program listens on `port` of 127.0.0.1: checked before starting, so the
  /// answer does not wait on the server's tasks, which a busy process may run late.
  private static func isInUse(_ port: UInt16) -> Bool {
    #if canImport(Glibc) || canImport(Musl)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
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
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return bound != 0 && errno == EADDRINUSE
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

  /// The statuses `ServedReport` answers with, spelled (code and phrase) by FlyingFox.
  private static let statusCodes: [HTTPStatusCode] = [
    .ok, .badRequest, .forbidden, .notFound, .methodNotAllowed, .payloadTooLarge,
    .internalServerError,
  ]

  /// FlyingFox's status for `status`; a code it does not list keeps its number.
  package static func statusCode(_ status: Int) -> HTTPStatusCode {
    statusCodes.first { $0.code == status } ?? HTTPStatusCode(status, phrase: "")
  }

  /// Starts listening; returns once it does, with the port, or throws why it could not.
  package func start() async throws(StartError) -> Int {
    let server = self.server
    let task = Task { try await server.run() }
    running.set(task)
    // Whichever comes first: FlyingFox says it listens, or its run ends (a failed start ends it
    // at once, and FlyingFox's wait would not hear of it before its own timeout).
    let (outcomes, outcome) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
    Task {
      do {
        try await server.waitUntilListening(timeout: 30)
        outcome.yield(.success(()))
      } catch {
        outcome.yield(.failure(ListeningTimedOut()))
      }
    }
    Task { outcome.yield((await task.result).flatMap { .failure(ServerStopped()) }) }
    var first: Result<Void, any Error> = .failure(ListeningTimedOut())
    for await result in outcomes {
      first = result
      break
    }
    outcome.finish()
    switch first {
    case .success:
      guard case .ip4(_, let port)? = await server.listeningAddress else {
        task.cancel()
        throw StartError(description: "The server listens on no IPv4 address.", portInUse: false)
      }
      report.listeningPort = Int(port)
      return Int(port)
    case .failure(let error as ServerStopped):
      _ = error
      throw startError(await task.result)
    case .failure:
      task.cancel()
      throw StartError(
        description: "The server did not start listening in time.", portInUse: false)
    }
  }

  private struct ListeningTimedOut: Error {}
  private struct ServerStopped: Error {}

  private func startError(_ result: Result<Void, any Error>) -> StartError {
    if case .failure(let error) = result, case SocketError.failed(_, let code, _) = error,
      code == EADDRINUSE
    {
      return Self.portInUse(requestedPort)
    }
    let cause = (try? result.get()).map { "it stopped" } ?? "\(result)"
    return StartError(description: "The server could not start: \(cause).", portInUse: false)
  }

  /// Stops listening and closes every connection.
  package func stop() async {
    await server.stop(timeout: 1)
    running.cancel()
  }
}

/// The server's task, so that `stop()` can cancel it.
private final class RunningTask: @unchecked Sendable {
  private let lock = NSLock()
  private var task: Task<Void, any Error>?

  func set(_ task: Task<Void, any Error>) {
    lock.withLock { self.task = task }
  }

  func cancel() { lock.withLock { task?.cancel() } }
}
