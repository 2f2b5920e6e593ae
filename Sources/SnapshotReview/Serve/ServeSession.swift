import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension ReviewSession {
  /// `report --serve`: serves the report of the failures matching `filters` on `127.0.0.1:port`
  /// until interrupted (Ctrl-C, `SIGTERM`). Returns ``ToolExitCode/success`` when stopped so,
  /// ``ToolExitCode/unavailable`` when the port is in use or the server cannot listen.
  package func serve(port: UInt16, filters: [String]) -> ToolExitCode {
    let report = ServedReport(session: self, filters: filters)
    let server: ReportServer
    do {
      server = try ReportServer(report: report, port: port)
    } catch {
      console.warn("error: \(error.description)\n")
      return .unavailable
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    // The signals end the wait below instead of the process, so the server closes its socket.
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let sources = [SIGINT, SIGTERM].map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { done.signal() }
      source.resume()
      return source
    }
    defer {
      sources.forEach { $0.cancel() }
      signal(SIGINT, SIG_DFL)
      signal(SIGTERM, SIG_DFL)
    }
    let console = SharedConsole(console: self.console)
    let description = artifactsDescription
    Task {
      do {
        let listening = try await server.start()
        console.write(
          """
          Serving the report of \(description) at http://127.0.0.1:\(listening)/
          Accept and Reject on the page change files here; press Ctrl-C to stop.

          """
        )
      } catch {
        console.warn("error: \((error as? ReportServer.StartError)?.description ?? "\(error)")\n")
        outcome.set(.unavailable)
        done.signal()
      }
    }
    done.wait()
    let stopped = DispatchSemaphore(value: 0)
    Task {
      await server.stop()
      stopped.signal()
    }
    _ = stopped.wait(timeout: .now() + 3)
    if outcome.value == .success { self.console.write("\nStopped serving.\n") }
    return outcome.value
  }
}

/// The console, used from the server's task while the session's thread waits.
private struct SharedConsole: @unchecked Sendable {
  var console: any ReviewConsole
  func write(_ text: String) { console.write(text) }
  func warn(_ text: String) { console.warn(text) }
}

private final class Outcome: @unchecked Sendable {
  private let lock = NSLock()
  private var code = ToolExitCode.success
  func set(_ value: ToolExitCode) { lock.withLock { code = value } }
  var value: ToolExitCode { lock.withLock { code } }
}
