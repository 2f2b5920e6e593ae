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
/// when its page left nothing in it that the browser cannot clear — no request that could fill
/// the HTTP cache, no frame, worker or window of its own, no download, no failure — and the
/// later page gets it only once every other target in it is closed and its storage cleared
/// (``ContextReset``) and its permissions reset; any other context is disposed, and the next
/// page gets a new one.
/// A browser context costs the browser more than most snapshots do (a window, a profile): the
/// later page is made in the kept context before the finished one, whose scripts no longer
/// run, is closed, so that the context's window stays.
actor SharedBrowser {
  nonisolated var unownedExecutor: UnownedSerialExecutor {
    WebExecutor.shared.unownedSerialExecutor
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
  /// resized, which costs one more layout. When there was no page ahead (the browser's first
  /// snapshot), the next one is made once this page closes, not while it renders.
  func newPage(viewport: Viewport) async throws(WebSnapshotError) -> PageSession {
    let browser = try await browser()
    let taken: Spare
    let madeAhead: Bool
    let reuse = ContextReuseMeasurement.currentReuse
    // A context handed on without its reset goes only to a snapshot measured that way.
    if let unreset = spare, unreset.handedOnUnreset, reuse != .reusedWithoutReset {
      Self.dispose(unreset)
      spare = nil
    }
    if let spare, spare.browser === browser {
      taken = spare
      madeAhead = true
    } else {
      taken = nextPage(in: browser, viewport, reuse)
      madeAhead = false
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
    // Unless a snapshot that ran meanwhile has already asked for the next one. A page made on
    // demand (the browser's first, as a rule) is waited for by its snapshot, and a page made
    // ahead now would compete with it for the browser's main thread: with `chromium`, its
    // window delays the snapshot's own replies by 40 to 70 ms. The next page is made when this
    // one closes instead.
    if madeAhead {
      if spare == nil { spare = nextPage(in: browser, viewport, reuse) }
    } else if spare == nil {
      deferredViewport = viewport
    }
    return session
  }

  /// The size of the next page, when it is to be made once a page made on demand closes.
  private var deferredViewport: Viewport?

  /// Whether a page is being made, or is ready, for the next snapshot (for the tests).
  var hasPageAhead: Bool { spare != nil }

  /// Makes the next page ahead if a page made on demand deferred it.
  private func makeDeferredPage() {
    guard let viewport = deferredViewport else { return }
    deferredViewport = nil
    guard spare == nil, let current, current.isRunning else { return }
    spare = nextPage(in: current, viewport, ContextReuseMeasurement.currentReuse)
  }

  /// Pages made in the emptied contexts of closed pages, for the next snapshots of their
  /// browser.
  private var idlePages: [Spare] = []

  /// How many emptied contexts are kept: as many as pages render at once, and the one ahead.
  private static let idlePageLimit = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount) + 1

  /// A page of an emptied context of `browser` if there is one, else one in a new context.
  /// A context handed on without its reset (``ContextReuseMeasurement``) is taken only under
  /// `.reusedWithoutReset`, and disposed otherwise.
  private func nextPage(
    in browser: Browser,
    _ viewport: Viewport,
    _ reuse: ContextReuseMeasurement.Reuse
  ) -> Spare {
    idlePages.removeAll { $0.browser !== browser }
    if reuse != .reusedWithoutReset {
      for unreset in idlePages where unreset.handedOnUnreset { Self.dispose(unreset) }
      idlePages.removeAll { $0.handedOnUnreset }
    }
    return idlePages.popLast()
      ?? Spare(browser: browser, viewport: viewport, page: prepare(in: browser, viewport))
  }

  /// Closes the page of `spare` and disposes its context, once it is made.
  private static func dispose(_ spare: Spare) {
    Task(executorPreference: WebExecutor.shared) {
      if case .success(let session) = await spare.page.value { session.close() }
    }
  }

  /// Closes `session`'s page. Its context is kept for a later page when `reusable` and the page
  /// touched nothing that outlives it and the browser cannot clear (a request that may have
  /// filled its HTTP cache, a frame, worker or window of its own, a download, a failure); the
  /// later page, made in it, gets it only once ``ContextReset`` has emptied it. It is disposed
  /// otherwise.
  func close(_ session: PageSession, reusable: Bool) {
    defer { makeDeferredPage() }
    let measurement = ContextReuseMeasurement.current
    let reuse = measurement?.reuse ?? .resetAndReused
    guard reusable, reuse != .neverReused, session.contextTouched == nil, let current,
      current.isRunning,
      current.connection === session.connection, idlePages.count < Self.idlePageLimit
    else {
      session.close()
      return
    }
    session.detach()
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
    // The finished page closes once the next one is in its context, so that the context's
    // window (the last tab closed would close it) is not made again.
    let viewport = spare?.viewport ?? deferredViewport ?? Viewport(width: 1280, height: 720)
    let browser = current
    let skipReset = reuse == .reusedWithoutReset
    let page = Task(executorPreference: WebExecutor.shared) {
      () -> Result<PageSession, WebSnapshotError> in
      let context = session.contextIdentifier
      do throws(WebSnapshotError) {
        let next = try await PageSession.open(in: browser, context: context, viewport: viewport)
        if skipReset {
          browser.connection.post("Target.closeTarget", ["targetId": session.targetIdentifier])
          return .success(next)
        }
        do throws(WebSnapshotError) {
          let started = DispatchTime.now()
          try await ContextReset.reset(context, keeping: next)
          let nanoseconds = DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds
          measurement?.recordReset(milliseconds: Double(nanoseconds) / 1e6)
        } catch {
          next.close()
          throw error
        }
        return .success(next)
      } catch {
        // The kept context could not take a page or be emptied (it is disposed): a new
        // context, then.
        browser.connection.post("Target.disposeBrowserContext", ["browserContextId": context])
        do throws(WebSnapshotError) {
          return .success(try await PageSession.open(in: browser, viewport: viewport))
        } catch {
          return .failure(error)
        }
      }
    }
    idlePages.append(
      Spare(browser: browser, viewport: viewport, page: page, handedOnUnreset: skipReset)
    )
  }

  /// A page being made ready, for `browser`, at `viewport`.
  private struct Spare {
    var browser: Browser
    var viewport: Viewport
    var page: Task<Result<PageSession, WebSnapshotError>, Never>
    /// Whether its context was handed on without ``ContextReset`` (measurement only).
    var handedOnUnreset = false
  }

  private var spare: Spare?

  /// A page in a new browser context of `browser`, being made ready.
  private func prepare(
    in browser: Browser,
    _ viewport: Viewport
  ) -> Task<Result<PageSession, WebSnapshotError>, Never> {
    Task(executorPreference: WebExecutor.shared) {
      do throws(WebSnapshotError) {
        return .success(try await PageSession.open(in: browser, viewport: viewport))
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
    deferredViewport = nil
    idlePages = []
  }

  /// The running browser's process identifier, if one runs (tests kill it).
  func runningProcessIdentifier() -> pid_t? {
    guard let current, current.isRunning else { return nil }
    return current.process.processIdentifier
  }

  /// Seconds a starting browser has to answer its first command: the deadline of a browser's
  /// start, which does not count against an assertion's timeout.
  static let startDeadline: Double = 30

  /// The deadline in effect, in words.
  static var startDeadlineText: String {
    let seconds = TestHooks.value(StartDeadline.self) ?? startDeadline
    return seconds == 1 ? "1 second" : "\(String(format: "%g", seconds)) seconds"
  }

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

  /// Whether a headless shell draws only on demand: `false` makes it draw at its own pace, as
  /// `chromium` does (for the tests, through `TestHooks`).
  enum FramesOnDemand: TestHookKey {
    typealias Value = Bool
  }

  private static func start() async throws(WebSnapshotError) -> Browser {
    let path = try BrowserExecutable.locate().get()
    var framesOnDemand =
      BrowserExecutable.isHeadlessShell(path) && TestHooks.value(FramesOnDemand.self) != false
    let process = try BrowserProcess.start(path: path, framesOnDemand: framesOnDemand)
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
      let version = try await connection.send("Browser.getVersion")
      // Only the headless shell calls itself so; any other browser draws at its own pace.
      if version.string("product")?.hasPrefix("HeadlessChrome/") != true { framesOnDemand = false }
    } catch {
      process.terminate()
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
      let log = process.logTail()
      let reason: String
      if elapsed >= seconds {
        reason = "it did not answer within its start deadline of \(startDeadlineText)"
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
    return Browser(
      process: process,
      connection: connection,
      blankDocument: blankDocument,
      framesOnDemand: framesOnDemand
    )
  }
}
