import Foundation
import RunRecord

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one browser of the test process: started by the first web snapshot, shared by every
/// later one, started again if it has died, and killed when the process exits.
///
/// Each snapshot's page is alone in its browser context. A context is kept for a later page
/// when its page left nothing in it but what closing the page ends (its document, timers,
/// workers, listeners, history, emulation) — no request that could fill the HTTP cache, no
/// frame or worker of its own, no download, no storage of its origin, no failure — and its
/// permissions are reset; any other context is disposed, and the next page gets a new one.
/// A browser context costs the browser more than most snapshots do (a window, a profile).
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

  /// A new page, set up and at `viewport`, in a browser context of its own.
  ///
  /// One page is kept ready ahead, at the size the last snapshot asked for: a context's window
  /// and renderer cost the browser more than most snapshots do, and this way they are made while
  /// the previous snapshot finishes, or between two tests. A page taken at another size is
  /// resized, which costs one more layout.
  func newPage(viewport: Viewport) async throws(WebSnapshotError) -> PageSession {
    let browser = try await browser()
    let taken: Spare
    if let spare, spare.browser === browser {
      taken = spare
    } else {
      taken = Spare(browser: browser, viewport: viewport, page: prepare(in: browser, viewport))
    }
    spare = nil
    let session = try await taken.page.value.get()
    do throws(WebSnapshotError) {
      // The page may have been made ready before the browser was killed. The browser answers
      // this at once (no renderer is involved), and before the next page is asked for.
      _ = try await browser.connection.send("Browser.getVersion")
      if taken.viewport != viewport {
        try await session.send(viewport.command.0, viewport.command.1)
      }
    } catch {
      session.close()
      throw error
    }
    // Unless a snapshot that ran meanwhile has already asked for the next one.
    if spare == nil {
      spare = Spare(browser: browser, viewport: viewport, page: prepare(in: browser, viewport))
    }
    return session
  }

  /// The contexts of closed pages, emptied, for the next pages of `browser`.
  private var idleContexts: [(browser: Browser, context: String)] = []

  /// How many emptied contexts are kept: as many as pages render at once, and the one ahead.
  private static let idleContextLimit = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount) + 1

  /// Closes `session`'s page. Its context is kept for a later page when `reusable` (the caller
  /// found no storage of the page's origin in it) and the page touched nothing else that
  /// outlives it; it is disposed otherwise.
  func close(_ session: PageSession, reusable: Bool) {
    guard reusable, session.contextTouched == nil, let current, current.isRunning,
      current.connection === session.connection, idleContexts.count < Self.idleContextLimit
    else {
      session.close()
      return
    }
    session.close(keepingContext: true)
    // Permissions and downloads are the context's: the page may have been refused a
    // permission, or a strategy may have granted one or allowed downloads.
    current.connection.post(
      "Browser.resetPermissions",
      ["browserContextId": session.contextIdentifier]
    )
    current.connection.post(
      "Browser.setDownloadBehavior",
      ["behavior": "default", "browserContextId": session.contextIdentifier]
    )
    idleContexts.append((current, session.contextIdentifier))
  }

  /// A page being made ready, for `browser`, at `viewport`.
  private struct Spare {
    var browser: Browser
    var viewport: Viewport
    var page: Task<Result<PageSession, WebSnapshotError>, Never>
  }

  private var spare: Spare?

  private func prepare(
    in browser: Browser,
    _ viewport: Viewport
  ) -> Task<Result<PageSession, WebSnapshotError>, Never> {
    idleContexts.removeAll { $0.browser !== browser }
    let context = idleContexts.popLast()?.context
    return Task(executorPreference: WebExecutor.shared) {
      do throws(WebSnapshotError) {
        return .success(
          try await PageSession.open(in: browser, context: context, viewport: viewport)
        )
      } catch {
        return .failure(error)
      }
    }
  }

  /// Stops the running browser and forgets the page made ready ahead: the next snapshot starts
  /// a new one (tests that run a browser of their own use it).
  func stop() {
    current?.process.terminate()
    current = nil
    spare = nil
    idleContexts = []
  }

  /// The running browser's process identifier, if one runs (tests kill it).
  func runningProcessIdentifier() -> pid_t? {
    guard let current, current.isRunning else { return nil }
    return current.process.processIdentifier
  }

  /// Seconds a starting browser has to answer its first command.
  static let startDeadline: Double = 30

  /// Another deadline, for the tests (through `TestHooks`).
  enum StartDeadline: TestHookKey {
    typealias Value = Double
  }

  /// `error`'s message as a clause inside another sentence: without its final full stop.
  private static func sentence(_ error: WebSnapshotError) -> String {
    var text = error.description
    while text.hasSuffix(".") { text.removeLast() }
    return text
  }

  private static func start() async throws(WebSnapshotError) -> Browser {
    let path = try BrowserExecutable.locate().get()
    let process = try BrowserProcess.start(path: path)
    let connection = DevToolsConnection(process: process)
    let blankDocument: URL
    do throws(WebSnapshotError) {
      blankDocument = try BlankDocument.write(into: process.profileFolder)
    } catch {
      process.terminate()
      throw error
    }
    // A browser that never answers is killed, so that no snapshot waits on it forever.
    let seconds = TestHooks.value(StartDeadline.self) ?? startDeadline
    let started = DispatchTime.now()
    let deadline = Task(executorPreference: WebExecutor.shared) {
      try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
      process.terminate()
    }
    defer { deadline.cancel() }
    do {
      _ = try await connection.send("Browser.getVersion")
    } catch {
      process.terminate()
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
      let log = process.logTail()
      let span = seconds == 1 ? "1 second" : "\(String(format: "%g", seconds)) seconds"
      let reason: String
      if elapsed >= seconds {
        reason = "it did not answer within \(span)"
      } else if case .browserExited(let how) = error {
        // Not a browser at all (`/bin/true`), or one that crashed at once.
        reason =
          "it ended before answering its first command (\(how)), so it is not a working Chromium"
      } else {
        reason = Self.sentence(error)
      }
      throw .browserDidNotStart(
        path: path,
        reason: reason + (log.isEmpty ? "" : ". Its log ends:\n\(log)")
      )
    }
    // Service workers and shared workers belong to a browser context, not to a page: the
    // browser announces them, paused, to be guarded like the page's own frames and workers.
    let watcher = BrowserTargetWatcher(connection: connection)
    connection.addListener(watcher, for: DevToolsConnection.browserSession)
    if NetworkWalls.current.contains(.interception) {
      do {
        _ = try await connection.send(
          BrowserTargetWatcher.command.0,
          BrowserTargetWatcher.command.1
        )
      } catch {
        process.terminate()
        throw .browserDidNotStart(path: path, reason: Self.sentence(error))
      }
    }
    return Browser(process: process, connection: connection, blankDocument: blankDocument)
  }
}
