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
    let listening = server.start()
    Thread { report.prepare() }.start()
    console.write(
      """
      Serving the report of \(artifactsDescription) at http://127.0.0.1:\(listening)/
      Accept and Reject on the page change files here; press Ctrl-C to stop.

      """
    )
    done.wait()
    server.stop()
    console.write("\nStopped serving.\n")
    return .success
  }
}
