import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A client on a raw socket, so that a test sends exactly the bytes it means, as slowly as it
/// means.
final class RawClient {
  let descriptor: Int32

  struct Failure: Error, CustomStringConvertible { var description: String }

  init(port: Int) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw Failure(description: "connect: errno \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Sends `text` whole, or throws when the server closed the connection.
  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
      sent += count
    }
  }

  /// What has arrived so far, without waiting.
  func available() -> String {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = recv(descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
    return count > 0 ? String(decoding: chunk[..<count], as: UTF8.self) : ""
  }

  /// Everything until the server closes, or until `seconds` pass.
  func response(within seconds: Double) -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while Date() < deadline {
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { break }
      let count = recv(descriptor, &chunk, chunk.count, 0)
      if count <= 0 { break }
      response += chunk[..<count]
    }
    return String(decoding: response, as: UTF8.self)
  }

  /// Sends `request`, closes the sending side and returns the whole response.
  static func exchange(port: Int, _ request: String) throws -> String {
    let client = try RawClient(port: port)
    try? client.send(request)
    shutdown(client.descriptor, Int32(SHUT_WR))
    return client.response(within: 5)
  }
}
