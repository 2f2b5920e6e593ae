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
  nonisolated var unownedExecutor: UnownedSerialExecutor {
    WebExecutor.shared.asUnownedSerialExecutor()
  }

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

  /// A new page, set up, in a browser context of its own. One page is kept ready ahead: creating
  /// a context and a page costs the browser more than anything else a snapshot asks of it, and
  /// that way it happens while the previous snapshot renders.
  func newPage() async throws(WebSnapshotError) -> PageSession {
    let browser = try await browser()
    let ready: Task<Result<PageSession, WebSnapshotError>, Never>
    if let spare, spare.browser === browser {
      ready = spare.page
    } else {
      ready = Self.prepare(in: browser)
    }
    spare = (browser, Self.prepare(in: browser))
    return try await ready.value.get()
  }

  private var spare: (browser: Browser, page: Task<Result<PageSession, WebSnapshotError>, Never>)?

  private static func prepare(
    in browser: Browser
  ) -> Task<Result<PageSession, WebSnapshotError>, Never> {
    Task(executorPreference: WebExecutor.shared) {
      do throws(WebSnapshotError) {
        return .success(try await PageSession.open(in: browser))
      } catch {
        return .failure(error)
      }
    }
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
