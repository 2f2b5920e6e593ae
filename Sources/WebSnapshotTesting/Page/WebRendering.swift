import Foundation
import ImageSnapshotTesting
import SnapshotTesting

/// Runs one web snapshot: loads the page in the shared browser, lets `body` read it, closes it,
/// and reports to the assertion what went wrong (it then fails) and what deserves a warning.
enum WebRendering {
  /// Takes a snapshot with `body` as an `Async` for a strategy, with `placeholder` as the value
  /// handed on when the snapshot cannot be taken (the assertion then fails with the reason).
  static func snapshot<Output: Sendable>(
    of page: WebPage,
    width: Int?,
    height: Int?,
    placeholder: @escaping @Sendable () -> Output,
    _ body: @escaping @Sendable (PageSession) async throws(WebSnapshotError) -> Output
  ) -> Async<Output> {
    Async { callback in
      // The engine calls back once, from any thread; the callback itself is not `Sendable`.
      let callback = CallbackBox(callback)
      let wait = SnapshotWait.current
      // Unstructured, so the task inherits the assertion's task-local report channels.
      startOnWebExecutor {
        let (result, warnings) = await run(
          page,
          width: width,
          height: height,
          wait: wait,
          body
        )
        for warning in warnings { SnapshotWarning.report(warning) }
        switch result {
        case .success(let output):
          callback.call(output)
        case .failure(let error):
          UnavailableSnapshot.report(error.description)
          callback.call(placeholder())
        }
      }
    }
  }

  static func run<Output: Sendable>(
    _ page: WebPage,
    width: Int?,
    height: Int?,
    wait: SnapshotWait?,
    _ body: @escaping @Sendable (PageSession) async throws(WebSnapshotError) -> Output
  ) async -> (Result<Output, WebSnapshotError>, warnings: [String]) {
    let started = DispatchTime.now()
    let loader = PageLoader(
      page: page,
      width: width,
      height: height,
      note: { wait?.waiting(for: $0) }
    )
    // Looked up for every snapshot, even with a browser running, so that a missing browser
    // fails each assertion the same way.
    if case .failure(let error) = BrowserExecutable.locate() { return (.failure(error), []) }
    wait?.waiting(
      for:
        "one of the other web snapshots to finish (at most \(2 * ProcessInfo.processInfo.activeProcessorCount) render at once)"
    )
    await PageLimiter.shared.acquire()
    // An assertion that gave up while this snapshot waited for its turn takes no page.
    if let wait, secondsLeft(of: wait, since: started) <= 0 {
      await PageLimiter.shared.release()
      return (.failure(.abandoned), [])
    }
    let session: PageSession
    do throws(WebSnapshotError) {
      session = try await openSession(viewport: try loader.viewport(), wait)
    } catch {
      await PageLimiter.shared.release()
      return (.failure(error), [])
    }
    let result: Result<Output, WebSnapshotError>
    do throws(WebSnapshotError) {
      let output = try await withWatchdog(wait, started, session) {
        () throws(WebSnapshotError) -> Output in
        let temporaryFile = try await loader.load(into: session)
        defer {
          if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
        }
        let output = try await body(session)
        await session.waitForOpenedWindows()
        try session.throwIfFailed()
        return output
      }
      result = .success(output)
    } catch {
      await SharedBrowser.shared.close(session, reusable: false)
      await PageLimiter.shared.release()
      return (.failure(error), warnings(session))
    }
    let reported = warnings(session)
    // The snapshot is handed on now; its context is emptied for a later page (or disposed)
    // afterwards, while the assertion compares. A later snapshot never waits for it: it takes
    // the page made ready ahead.
    Task(executorPreference: WebExecutor.shared) {
      await SharedBrowser.shared.close(session, reusable: true)
      await PageLimiter.shared.release()
    }
    return (result, reported)
  }

  /// A new page in the shared browser. A browser killed since the last snapshot may not be known
  /// dead yet: when it turns out dead here, before any page was loaded, one more is started.
  ///
  /// A browser's start does not count against the assertion's timeout: it has a deadline of its
  /// own, ``SharedBrowser/startDeadline``, and the timeout covers the page.
  private static func openSession(
    viewport: Viewport,
    _ wait: SnapshotWait?
  ) async throws(WebSnapshotError)
    -> PageSession
  {
    var attempt = 0
    while true {
      attempt += 1
      do throws(WebSnapshotError) {
        wait?.waiting(
          for:
            "the browser to start (within its own deadline of \(SharedBrowser.startDeadlineText), not counted against the timeout)"
        )
        wait?.pauseCounting()
        defer { wait?.resumeCounting() }
        _ = try await SharedBrowser.shared.browser()
      } catch {
        guard case .browserExited = error, attempt == 1 else { throw error }
        continue
      }
      do throws(WebSnapshotError) {
        wait?.waiting(for: "the browser to open a page")
        return try await SharedBrowser.shared.newPage(viewport: viewport)
      } catch {
        guard case .browserExited = error, attempt == 1 else { throw error }
      }
    }
  }

  private static func warnings(_ session: PageSession) -> [String] {
    let blocked = session.blockedRequests.map {
      """
      The web page requested \($0), which was blocked: a snapshot loads only loopback, file: \
      and data: URLs, so that it never depends on the network.
      """
    }
    let errors = session.uncaughtScriptErrors.map {
      "A script of the web page threw while it loaded: \($0)"
    }
    return blocked + errors
  }

  /// The seconds left until the assertion stops waiting (its timeout, the time it did not count,
  /// and one more second), counted
  /// from `started`, when the snapshot began.
  private static func secondsLeft(of wait: SnapshotWait, since started: DispatchTime) -> Double {
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    return wait.effectiveTimeout + 1 - elapsed
  }

  /// Runs `body`; once the assertion has stopped waiting (its timeout and a little more, counted
  /// from `started`), fails `session`, so that nothing waits on a page forever.
  private static func withWatchdog<Output: Sendable>(
    _ wait: SnapshotWait?,
    _ started: DispatchTime,
    _ session: PageSession,
    _ body: () async throws(WebSnapshotError) -> Output
  ) async throws(WebSnapshotError) -> Output {
    guard let wait else { return try await body() }
    let watchdog = Task(executorPreference: WebExecutor.shared) {
      // An infinite or enormous timeout waits a day at a time, never overflowing the
      // nanoseconds; the time left is read again, as time the assertion does not count moves it.
      while case let left = secondsLeft(of: wait, since: started), left > 0 {
        try await Task.sleep(nanoseconds: UInt64(min(left, 86_400) * 1_000_000_000))
      }
      session.fail(.abandoned)
    }
    defer { watchdog.cancel() }
    return try await body()
  }
}

/// The engine's callback for an `Async`, carried into the task that takes the snapshot.
private struct CallbackBox<Output>: @unchecked Sendable {
  let call: (Output) -> Void
  init(_ call: @escaping (Output) -> Void) { self.call = call }
}
