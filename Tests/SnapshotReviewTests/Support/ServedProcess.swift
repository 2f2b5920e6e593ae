import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `snapshot-testing report --serve` running as its own process, as a user starts it. Tests use
/// the process rather than a server in the test process, whose tasks would share the concurrency
/// pool with every other test of a parallel run and could start late.
final class ServedProcess {
  let process = Process()
  let port: Int
  private(set) var output = ""
  private let reader: FileHandle
  private let watchdog: DispatchWorkItem

  /// Starts the tool in `folder` with `arguments` after `report --serve`, and waits for it to
  /// print its address.
  init(in folder: URL, arguments: [String]) throws {
    let executable = try #require(ExecutableTests.executable, "run `swift build` first")
    process.executableURL = executable
    process.arguments = ["report", "--serve"] + arguments
    process.currentDirectoryURL = folder
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    reader = pipe.fileHandleForReading
    try process.run()
    let running = process
    watchdog = DispatchWorkItem { if running.isRunning { running.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    while !output.contains("/\n"), process.isRunning {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      output += String(decoding: chunk, as: UTF8.self)
    }
    let prefix = "at http://127.0.0.1:"
    guard let range = output.range(of: prefix),
      let port = Int(output[range.upperBound...].prefix { $0.isNumber })
    else {
      process.terminate()
      throw DevToolsBrowser.Failure(description: "the server printed no address: \(output)")
    }
    self.port = port
  }

  /// Sends Ctrl-C and waits for the process to end; returns its status.
  @discardableResult
  func interrupt() -> Int32 {
    if process.isRunning { process.interrupt() }
    process.waitUntilExit()
    output += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    watchdog.cancel()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    watchdog.cancel()
  }
}

/// Sends one HTTP request to `127.0.0.1:port` and returns the raw response ("" when nothing
/// listens).
func rawHTTP(port: Int, _ head: String, body: String = "") throws -> String {
  guard let client = try? RawClient(port: port) else { return "" }
  try? client.send(head + "Connection: close\r\n\r\n" + body)
  return client.response(within: 120)
}

/// A socket listening on a free port of 127.0.0.1, to make that port busy.
final class BusyPort {
  let port: Int
  private let descriptor: Int32

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.descriptor = descriptor
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(descriptor, pointer, length) == 0 && listen(descriptor, 1) == 0
          && getsockname(descriptor, pointer, &length) == 0
      }
    }
    guard bound else { throw DevToolsBrowser.Failure(description: "bind: \(errno)") }
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(descriptor) }
}
