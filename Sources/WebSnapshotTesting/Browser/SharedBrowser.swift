import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running browser and the connection that drives it.
final class Browser: Sendable {
  let process: BrowserProcess
  let connection: DevToolsConnection

  init(process: BrowserProcess, connection: DevToolsConnection) {
    self.process = process
    self.connection = connection
  }

  var isRunning: Bool { !connection.isClosed }
}

/// The one browser of the test process: started by the first web snapshot, shared by every
/// later one (each in its own browser context), started again if it has died, and killed when
/// the process exits.
actor SharedBrowser {
  static let shared = SharedBrowser()

  private var current: Browser?
  private var starting: Task<Result<Browser, WebSnapshotError>, Never>?

  /// The running browser, started if there is none or the last one died.
  func browser() async throws(WebSnapshotError) -> Browser {
    if let current, current.isRunning { return current }
    if let starting { return try await starting.value.get() }
    let task = Task(executorPreference: WebExecutor.shared) {
      () -> Result<Browser, WebSnapshotError> in
      do throws(WebSnapshotError) {
        return .success(try await Self.start())
      } catch {
        return .failure(error)
      }
    }
    starting = task
    let result = await task.value
    starting = nil
    if case .success(let browser) = result {
      current?.process.terminate()
      current = browser
      BrowserRegistry.shared.register(browser.process)
    }
    return try result.get()
  }

  /// The running browser's process identifier, if one runs (tests kill it).
  func runningProcessIdentifier() -> pid_t? {
    guard let current, current.isRunning else { return nil }
    return current.process.processIdentifier
  }

  private static func start() async throws(WebSnapshotError) -> Browser {
    let path = try BrowserExecutable.locate().get()
    let process = try BrowserProcess.start(path: path)
    let connection = DevToolsConnection(process: process)
    do {
      _ = try await connection.send("Browser.getVersion")
    } catch {
      process.terminate()
      let log = process.logTail()
      throw .browserDidNotStart(
        path: path,
        reason: "\(error)" + (log.isEmpty ? "" : " Its log ends:\n\(log)")
      )
    }
    return Browser(process: process, connection: connection)
  }
}

/// The browsers this process started, killed when it exits normally. (When it is killed, the
/// browser exits on its own as its command pipe closes.)
final class BrowserRegistry: @unchecked Sendable {
  static let shared = BrowserRegistry()

  private let lock = NSLock()
  private var processes: [BrowserProcess] = []
  private var installedExitHandler = false

  func register(_ process: BrowserProcess) {
    let install = lock.withLock { () -> Bool in
      processes.removeAll { $0.processIdentifier == process.processIdentifier }
      processes.append(process)
      defer { installedExitHandler = true }
      return !installedExitHandler
    }
    if install { atexit { BrowserRegistry.shared.terminateAll() } }
  }

  func terminateAll() {
    let all = lock.withLock { () -> [BrowserProcess] in
      defer { processes = [] }
      return processes
    }
    for process in all { process.terminate() }
  }
}
