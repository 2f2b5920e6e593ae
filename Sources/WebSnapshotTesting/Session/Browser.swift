import Foundation

/// A running browser and the connection that drives it.
final class Browser: Sendable {
  let process: BrowserProcess
  let connection: DevToolsConnection
  /// The document every page loads first (``BlankDocument``).
  let blankDocument: URL
  /// Whether its pages draw only when a snapshot issues a frame (``PageFrames``): the headless
  /// shell, started with begin-frame control.
  let framesOnDemand: Bool
  /// Where the frames of its pages take turns, one in flight at a time (``PageFrames``).
  let frameGate = PageLimiter(limit: 1)

  init(
    process: BrowserProcess,
    connection: DevToolsConnection,
    blankDocument: URL,
    framesOnDemand: Bool
  ) {
    self.process = process
    self.connection = connection
    self.blankDocument = blankDocument
    self.framesOnDemand = framesOnDemand
  }

  var isRunning: Bool { !connection.isClosed }
}

/// The browsers this process started, killed when it exits normally. (When it is killed, the
/// kernel kills the browser, started with `PR_SET_PDEATHSIG`, and its helpers exit as its
/// command pipe closes.)
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
