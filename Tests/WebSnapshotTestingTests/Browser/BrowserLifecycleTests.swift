import Foundation
import ImageSnapshotTesting
import RunRecord
import SnapshotTesting
import TestSupport
import XCTest

@_spi(Benchmarks) @testable import WebSnapshotTesting

#if canImport(Glibc)
  import Glibc
#endif

/// The browser's life: killed during an assertion or between two, and never outliving the test
/// process, even one killed with SIGKILL. XCTest runs these one at a time, apart from the Swift
/// Testing suites, so killing the shared browser disturbs no other test.
final class BrowserLifecycleTests: FailureCapturingTestCase {
  override func setUpWithError() throws {
    try XCTSkipUnless(WebTesting.chromiumInstalled, "Chromium is not installed")
  }

  func testBrowserKilledDuringAnAssertionFailsItAndTheNextStartsANewOne() throws {
    _ = try WebTesting.render(WebTesting.solidPage("#fff"), as: .image(width: 10, height: 10))
    let server = try LoopbackServer(routes: ["/slow": .hang])
    defer { server.stop() }
    let pid = try XCTUnwrap(runningBrowser())

    let killer = Thread {
      // Long enough for the assertion to be waiting on the page.
      Thread.sleep(forTimeInterval: 1.5)
      kill(pid, SIGKILL)
    }
    killer.start()
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let failure = folder.verify(
      WebPage(url: server.url("/slow")),
      as: .image,
      record: .all,
      timeout: 30
    )
    XCTAssertTrue(
      failure?.contains("The browser exited while taking the web snapshot (killed by signal 9)")
        == true,
      failure ?? "passed"
    )
    XCTAssertTrue(folder.recordedFiles.isEmpty)

    let bitmap = try WebTesting.render(
      WebTesting.solidPage("#00f"),
      as: .image(width: 10, height: 10)
    )
    XCTAssertEqual(bitmap.pixel(x: 1, y: 1), RGBA(red: 0, green: 0, blue: 255))
    let next = try XCTUnwrap(runningBrowser())
    XCTAssertNotEqual(next, pid)
  }

  func testBrowserKilledBetweenAssertionsIsReplaced() throws {
    _ = try WebTesting.render(WebTesting.solidPage("#fff"), as: .image(width: 10, height: 10))
    let pid = try XCTUnwrap(runningBrowser())
    kill(pid, SIGKILL)
    // At once, before the package can have noticed: the next assertion starts a new browser.
    let bitmap = try WebTesting.render(
      WebTesting.solidPage("#f00"),
      as: .image(width: 10, height: 10)
    )
    XCTAssertEqual(bitmap.pixel(x: 1, y: 1), RGBA(red: 255, green: 0, blue: 0))
    XCTAssertNotEqual(try XCTUnwrap(runningBrowser()), pid)
    // And through the real assertion.
    let folder = ReferenceFolder()
    defer { folder.remove() }
    kill(try XCTUnwrap(runningBrowser()), SIGKILL)
    Thread.sleep(forTimeInterval: 0.5)
    XCTAssertNotNil(folder.verify(WebTesting.solidPage("#f00"), as: .image, record: .all))
    XCTAssertNil(folder.verify(WebTesting.solidPage("#f00"), as: .image, record: .never))
  }

  /// A browser that starts but never answers is killed after the start deadline, and the start
  /// fails saying so; no snapshot waits on it forever. (Its own `SharedBrowser`, so that the
  /// shared one is left alone.)
  func testABrowserThatNeverAnswersIsKilledAfterTheStartDeadline() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("silent-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let executable = try writeSilentBrowser(in: folder)

    let started = Date()
    let error = startError(executable: executable.path, deadline: 1)
    XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    XCTAssertEqual(
      error?.description,
      "Could not start the browser \(executable.path): it did not answer within its start deadline of 1 second."
    )
  }

  /// A browser's start does not count against the assertion's timeout: with every core busy and
  /// a browser that takes 6 seconds to start (the real one, behind a script that waits first),
  /// an assertion with the default 5-second timeout passes, and one whose page hangs still fails
  /// naming the page, not the start.
  func testTheBrowsersStartDoesNotCountAgainstTheTimeout() throws {
    let browser = try BrowserExecutable.locate().get()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("slow-start-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Named as the browser is, so that it is taken for the same kind (the headless shell or not).
    let slow = folder.appendingPathComponent(URL(fileURLWithPath: browser).lastPathComponent)
    try Data("#!/bin/sh\nsleep 6\nexec '\(browser)' \"$@\"\n".utf8).write(to: slow)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: slow.path)
    let busy = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in
      let loop = Process()
      loop.executableURL = URL(fileURLWithPath: "/bin/sh")
      loop.arguments = ["-c", "while :; do :; done"]
      return loop
    }
    for loop in busy { try loop.run() }
    defer {
      for loop in busy { loop.terminate() }
      stopSharedBrowser()
    }
    stopSharedBrowser()

    let references = ReferenceFolder()
    defer { references.remove() }
    // Recorded, which reports a failure of its own kind: the snapshot came within the timeout.
    let recorded = references.verify(
      WebTesting.solidPage("#0f0"),
      as: .image(width: 20, height: 20),
      record: .all,
      timeout: 5,
      environment: [.chromium: slow.path]
    )
    XCTAssertTrue(recorded?.contains("Recorded the snapshot") == true, recorded ?? "passed")
    XCTAssertEqual(references.recordedFiles.count, 1)

    stopSharedBrowser()
    let server = try LoopbackServer(routes: ["/slow": .hang])
    defer { server.stop() }
    let failure = references.verify(
      WebPage(url: server.url("/slow")),
      as: .image(width: 20, height: 20),
      named: "hanging",
      record: .all,
      timeout: 2,
      environment: [.chromium: slow.path]
    )
    XCTAssertTrue(failure?.contains("Exceeded timeout of 2 seconds") == true, failure ?? "passed")
    XCTAssertFalse(failure?.contains("the browser to start") == true, failure ?? "passed")
  }

  /// A page that draws what it can read of its window renders the same as the first snapshot
  /// of a browser and as the fiftieth (`chromium` cascaded each new context's window).
  func testAPageRendersTheSameAsTheFirstAndTheFiftiethSnapshot() throws {
    stopSharedBrowser()
    defer { stopSharedBrowser() }
    let page = WebPage(
      html: """
        <body style="margin:0"><div id="box" style="position:absolute;height:8px;background:#000">
        </div><p id="text" style="margin-top:20px"></p><script>
        const box = document.getElementById('box');
        box.style.left = screenX + 'px';
        box.style.top = screenY + 'px';
        box.style.width = Math.round(outerWidth / 10) + 'px';
        document.getElementById('text').textContent =
          [screenX, screenY, outerWidth, outerHeight, screenLeft, history.length].join(' ');
        // A request to a server: the context serves no later page, so each snapshot has a new one.
        fetch('http://127.0.0.1:9/').catch(() => {});
        </script></body>
        """
    )
    let strategy = Snapshotting<WebPage, Bitmap>.image(width: 200, height: 60)
    let first = try WebTesting.render(page, as: strategy)
    var last = first
    for _ in 2...50 { last = try WebTesting.render(page, as: strategy) }
    XCTAssertEqual(try first.pngData(), try last.pngData())
  }

  /// The isolation tests rest on the reset of a reused context: skipped (through the
  /// benchmark's measurement entry), a page's local storage is seen by a later page in its
  /// context; with the reset, no later page sees it, nor does a page after the measurement.
  func testIsolationFailsWithoutTheResetOfAReusedContext() throws {
    stopSharedBrowser()
    defer { stopSharedBrowser() }
    let plant = WebPage(html: "<p>plant</p><script>localStorage.setItem('kept', '1')</script>")
    let probe = StateIsolationTests.evaluating("Object.keys(localStorage).join(',')")
    func laterFindings() -> [String] {
      _ = StateIsolationTests.take(plant, probe)
      return (0..<5).map { _ in StateIsolationTests.take(WebPage(html: "<p>probe</p>"), probe).value
      }
    }
    let skipped = ContextReuseMeasurement(.reusedWithoutReset).run { laterFindings() }
    XCTAssertTrue(skipped.contains("kept"), "no later page saw the storage: \(skipped)")
    // A context handed on unreset inside the measurement never serves a snapshot outside it.
    let after = (0..<3).map { _ in
      StateIsolationTests.take(WebPage(html: "<p>probe</p>"), probe).value
    }
    XCTAssertEqual(after, Array(repeating: "", count: 3))
    stopSharedBrowser()
    let reset = laterFindings()
    XCTAssertEqual(reset, Array(repeating: "", count: 5))
  }

  private func stopSharedBrowser() {
    let done = DispatchSemaphore(value: 0)
    Task {
      await SharedBrowser.shared.stop()
      done.signal()
    }
    done.wait()
  }

  /// An executable that is no browser at all (`/bin/true` exits at once) fails in one sentence,
  /// not in a message nested in another.
  func testAnExecutableThatIsNoBrowserFailsInOneSentence() throws {
    let message = try XCTUnwrap(startError(executable: "/bin/true")?.description)
    XCTAssertTrue(
      message.hasPrefix(
        "Could not start the browser /bin/true: it ended before answering its first command ("
      ),
      message
    )
    XCTAssertTrue(message.hasSuffix("), so it is not a working Chromium."), message)
    XCTAssertFalse(message.contains(".."), message)
    XCTAssertFalse(message.contains("The browser exited while"), message)
  }

  /// A page whose renderer crashes fails what waits on it with the crash; the browser lives on.
  func testRendererCrashFailsTheSnapshotNamingIt() throws {
    let outcome = ResultBox()
    let done = DispatchSemaphore(value: 0)
    Task {
      do throws(WebSnapshotError) {
        let session = try await PageSession.open(
          in: try await SharedBrowser.shared.browser(),
          viewport: Viewport(width: 10, height: 10)
        )
        defer { session.close() }
        try await session.sendAll([("Page.enable", [:]), ("Inspector.enable", [:])])
        session.forgetEvents()
        // Chromium's own page that crashes its renderer on purpose.
        _ = try? await session.send("Page.navigate", ["url": "chrome://crash"])
        try await session.waitForEvent("Page.loadEventFired")
        outcome.error = nil
      } catch {
        outcome.error = error
      }
      done.signal()
    }
    XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "the crash was never reported")
    XCTAssertEqual(outcome.error, .pageCrashed("its renderer process crashed"))
    XCTAssertEqual(
      outcome.error?.description,
      "The browser's page crashed while taking the web snapshot (its renderer process crashed)."
    )
    let bitmap = try WebTesting.render(
      WebTesting.solidPage("#0f0"),
      as: .image(width: 10, height: 10)
    )
    XCTAssertEqual(bitmap.pixel(x: 1, y: 1), RGBA(red: 0, green: 255, blue: 0))
  }

  /// Starts a test process that starts the browser and sleeps, kills that process with SIGKILL
  /// mid-run, and counts the browser processes it leaves: none, within seconds.
  func testNoBrowserOutlivesATestProcessKilledWithSIGKILL() throws {
    let ready = FileManager.default.temporaryDirectory
      .appendingPathComponent("web-holder-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: ready) }
    let child = try startHoldingProcess(
      mode: "hold",
      environment: ProcessInfo.processInfo.environment,
      ready: ready
    )
    defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }

    XCTAssertTrue(FileManager.default.fileExists(atPath: ready.path), "no browser started")
    let before = browserProcesses(startedBy: child.processIdentifier)
    // The browser, and its helpers where it has started them yet (Chromium's old headless
    // shell starts its own later than Chromium does).
    XCTAssertFalse(before.isEmpty, "the browser was not found")

    kill(child.processIdentifier, SIGKILL)
    let left = waitForNoBrowser(startedBy: child.processIdentifier)
    XCTAssertEqual(
      left,
      [],
      "\(left.count) of \(before.count) browser processes outlived the test process"
    )
    for pid in left { kill(pid, SIGKILL) }
  }

  /// However early the test process dies (before the browser is started, while it starts,
  /// before it answers, just after), the kernel takes the browser with it: no process that
  /// the browser's start made is left. A browser that never answers, which would not notice its
  /// pipes closing, included.
  func testNoBrowserOutlivesATestProcessKilledAtAnyMoment() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("web-kill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let silent = try writeSilentBrowser(in: folder)

    // (a browser that never answers?, kill when: after the start began / once the browser runs)
    let moments: [(silent: Bool, afterBrowserAppears: Bool, delay: Double)] = [
      (false, false, 0), (false, false, 0.05), (false, true, 0), (false, true, 0.3),
      (true, true, 0), (true, true, 0.5),
    ]
    for moment in moments {
      var environment = ProcessInfo.processInfo.environment
      if moment.silent { environment[BrowserExecutable.variable] = silent.path }
      let child = try startHoldingProcess(
        mode: "start",
        environment: environment,
        ready: folder.appendingPathComponent("ready-\(UUID().uuidString)")
      )
      defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
      if moment.afterBrowserAppears {
        // What was seen is kept: asked again, a browser in the middle of `exec` (the silent
        // one's shell becoming `sleep`) may read as none for a moment.
        let deadline = Date(timeIntervalSinceNow: 10)
        var seen = browserProcesses(startedBy: child.processIdentifier)
        while seen.isEmpty && Date() < deadline {
          usleep(2_000)
          seen = browserProcesses(startedBy: child.processIdentifier)
        }
        XCTAssertFalse(seen.isEmpty, "no browser appeared at \(moment)")
      }
      Thread.sleep(forTimeInterval: moment.delay)
      // Not waited for with `waitUntilExit()`, which may never see a child whose browser
      // outlived it end.
      kill(child.processIdentifier, SIGKILL)
      let left = waitForNoBrowser(startedBy: child.processIdentifier)
      XCTAssertEqual(left, [], "browser processes outlived the test process killed at \(moment)")
      for pid in left { kill(pid, SIGKILL) }
    }
  }

  /// The kernel ties a child to the thread that forked it: a browser started from a thread that
  /// then ends (a pool thread retired) keeps running.
  func testABrowserOutlivesTheThreadThatStartedIt() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("web-thread-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let silent = try writeSilentBrowser(in: folder)

    let started = ProcessBox()
    let thread = Thread {
      started.process = try? BrowserProcess.start(path: silent.path)
    }
    thread.start()
    let deadline = Date(timeIntervalSinceNow: 10)
    while !thread.isFinished && Date() < deadline { usleep(10_000) }
    XCTAssertTrue(thread.isFinished)
    let process = try XCTUnwrap(started.process, "the browser did not start")
    defer { process.terminate() }
    // Long enough for a kill the thread's end would have caused to land.
    Thread.sleep(forTimeInterval: 1)
    let state =
      (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8))?
      .split(separator: ")").last?.split(separator: " ").first
    XCTAssertEqual(state, "S", "the browser is not running (state \(state ?? "none"))")
  }

  /// Why a browser of its own, started with `executable`, did not start (nil if it did).
  private func startError(executable: String, deadline: Double? = nil) -> WebSnapshotError? {
    let outcome = ResultBox()
    let done = DispatchSemaphore(value: 0)
    _ = RunEnvironment.withOverride([.chromium: executable]) {
      TestHooks.with(SharedBrowser.StartDeadline.self, deadline) {
        Task {
          do throws(WebSnapshotError) {
            _ = try await SharedBrowser().browser()
            outcome.error = nil
          } catch {
            outcome.error = error
          }
          done.signal()
        }
      }
    }
    XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "the start never ended")
    return outcome.error
  }

  /// A "browser" that starts and never answers.
  private func writeSilentBrowser(in folder: URL) throws -> URL {
    let executable = folder.appendingPathComponent("chromium")
    try Data("#!/bin/sh\nexec sleep 600\n".utf8).write(to: executable)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
    return executable
  }

  /// Starts `BrowserHoldingChild` (Tests/BrowserHoldingChild) in `mode` and waits until it says
  /// it is ready in `ready`.
  private func startHoldingProcess(
    mode: String,
    environment: [String: String],
    ready: URL
  ) throws -> Process {
    let child = Process()
    child.executableURL = try XCTUnwrap(
      builtProduct("BrowserHoldingChild"),
      "BrowserHoldingChild was not built beside the test bundle"
    )
    child.arguments = [mode, ready.path]
    child.environment = environment
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    try child.run()
    // In `hold` mode, the child says so once its browser has rendered.
    let deadline = Date(timeIntervalSinceNow: 60)
    while !FileManager.default.fileExists(atPath: ready.path) && Date() < deadline {
      if !child.isRunning { break }
      usleep(2_000)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: ready.path), "the holder never got ready")
    return child
  }

  /// The browser processes `owner` left, once they have had 15 seconds to go. None counts only
  /// when two looks 0.1 s apart agree: a process in the middle of `exec` has no environment to
  /// read for a moment, and would pass for gone.
  private func waitForNoBrowser(startedBy owner: pid_t) -> [pid_t] {
    var left = browserProcesses(startedBy: owner)
    var emptyLooks = left.isEmpty ? 1 : 0
    let deadline = Date(timeIntervalSinceNow: 15)
    while emptyLooks < 2 && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      left = browserProcesses(startedBy: owner)
      emptyLooks = left.isEmpty ? emptyLooks + 1 : 0
    }
    return left
  }

  private func runningBrowser() -> pid_t? {
    let box = PIDBox()
    let done = DispatchSemaphore(value: 0)
    Task {
      box.pid = await SharedBrowser.shared.runningProcessIdentifier()
      done.signal()
    }
    done.wait()
    return box.pid
  }
}

private final class ProcessBox: @unchecked Sendable {
  var process: BrowserProcess?
}

private final class PIDBox: @unchecked Sendable {
  var pid: pid_t?
}

private final class ResultBox: @unchecked Sendable {
  var error: WebSnapshotError? = .abandoned
}
