import Foundation
import ImageSnapshotTesting
import RunRecord
import Testing

@testable import WebSnapshotTesting

/// Frames on demand with the headless shell: its pages draw only the frames a snapshot issues
/// (`HeadlessExperimental.beginFrame`), a page animating with `requestAnimationFrame` still
/// settles, the pixels are those of the shell drawing at its own pace, and a frame the shell
/// refuses fails the snapshot in time instead of hanging it. Each test starts a shell of its own,
/// so that the shared browser (whichever executable the run chose) is left alone.
@Suite(.enabled(if: HeadlessShell.runs, "chromium-headless-shell is not installed"))
struct FramesOnDemandTests {
  @Test func theShellDrawsOnlyTheFramesASnapshotIssues() async throws {
    try await withShell { browser in
      #expect(browser.framesOnDemand)
      let session = try await PageSession.open(
        in: browser,
        viewport: Viewport(width: 50, height: 50)
      )
      defer { session.close() }
      #expect(session.frames != nil)
      _ = try await PageLoader(page: Self.animatedPage, width: 50, height: 50, note: { _ in })
        .load(into: session)
      // Settling took frames; none ran since, however long the page waits.
      let settled = try await frameCount(session)
      #expect(settled >= 2)
      try await Task.sleep(nanoseconds: 200_000_000)
      #expect(try await frameCount(session) == settled)
      // Driven again, the page's next frames each come a frame interval later (the page sees
      // its frame times to a tenth of a millisecond).
      let times = try await session.withFrames { () throws(WebSnapshotError) -> [Double] in
        let reply = try await session.evaluate(Self.threeMoreFrames)
        return (reply.message("result")?["value"] as? [NSNumber] ?? []).map(\.doubleValue)
      }
      #expect(times.count == 3)
      for (earlier, later) in zip(times, times.dropFirst()) {
        #expect(later - earlier >= PageFrames.interval - 0.1, "\(times)")
      }
    }
  }

  /// With frames on demand the shell composites in its browser process: it starts no GPU
  /// process (a GPU process of its own costs every warm snapshot 12 to 16 % more processor
  /// time). At its own pace it still does, which shows the check below can see one.
  @Test func theShellWithFramesOnDemandStartsNoGPUProcess() async throws {
    let onDemand = try await withShell { browser in
      _ = try await render(Self.animatedPage, in: browser)
      return Self.gpuProcesses(of: browser.process.processIdentifier)
    }
    #expect(onDemand == 0)
    let ownPace = try await withShell(framesOnDemand: false) { browser in
      _ = try await render(Self.animatedPage, in: browser)
      return Self.gpuProcesses(of: browser.process.processIdentifier)
    }
    #expect(ownPace == 1)
  }

  /// How many running processes descend from `browser` and were started as its GPU process.
  private static func gpuProcesses(of browser: pid_t) -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    var parents: [pid_t: pid_t] = [:]
    var commandLines: [pid_t: String] = [:]
    for entry in entries {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let fields = stat.split(separator: ")").last?.split(separator: " "),
        fields.count > 1, let parent = pid_t(fields[1]),
        let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
      else { continue }
      parents[pid] = parent
      commandLines[pid] = String(decoding: line, as: UTF8.self)
    }
    func descends(_ pid: pid_t) -> Bool {
      var current = pid
      for _ in 0..<16 {
        guard let parent = parents[current] else { return false }
        if parent == browser { return true }
        current = parent
      }
      return false
    }
    return commandLines.filter { descends($0.key) && $0.value.contains("--type=gpu-process") }
      .count
  }

  /// A page that redraws in every animation frame, forever, settles, and its frames' drawing is
  /// in the snapshot.
  @Test func aPageAnimatingWithRequestAnimationFrameSettles() async throws {
    try await withShell { browser in
      // `render`'s watchdog fails a page that never settles (`.abandoned`), so rendering at all
      // proves it settled; how fast is for the benchmarks, not a loaded test machine's clock.
      let bitmap = try await render(Self.animatedPage, in: browser)
      #expect(bitmap.pixel(x: 5, y: 5) == RGBA(red: 0, green: 255, blue: 0))
    }
  }

  @Test func framesOnDemandDrawTheSamePixelsAsTheShellAtItsOwnPace() async throws {
    let pages: [(WebPage, PageScreenshot)] = [
      (Self.article, PageScreenshot(fullPage: false, element: nil, masking: [])),
      (Self.article, PageScreenshot(fullPage: true, element: nil, masking: [])),
      (Self.article, PageScreenshot(fullPage: false, element: "table", masking: ["h1"])),
      (Self.animatedPage, PageScreenshot(fullPage: false, element: nil, masking: [])),
    ]
    var onDemand: [Bitmap] = []
    try await withShell { browser in
      for (page, screenshot) in pages {
        onDemand.append(try await render(page, in: browser, screenshot: screenshot))
      }
    }
    try await withShell(framesOnDemand: false) { browser in
      #expect(!browser.framesOnDemand)
      for (index, (page, screenshot)) in pages.enumerated() {
        let ownPace = try await render(page, in: browser, screenshot: screenshot)
        #expect(ownPace == onDemand[index], "page \(index) differs")
      }
    }
  }

  /// A web font the page ships is loaded and drawn before the screenshot, as when the shell
  /// draws at its own pace, although no frame has run since the HTML was written (the settling
  /// script lays the page out before it waits for `document.fonts.ready`).
  @Test func aWebFontIsDrawnWithFramesOnDemand() async throws {
    let fonts = "/usr/share/fonts/truetype/dejavu"
    guard FileManager.default.fileExists(atPath: "\(fonts)/DejaVuSerif-Bold.ttf") else {
      // Chromium's own dependencies bring the font; on CI, its absence is a failure.
      if ProcessInfo.processInfo.environment["CI"].map({ !$0.isEmpty }) == true {
        Issue.record("fonts-dejavu-core is not installed (\(fonts)/DejaVuSerif-Bold.ttf)")
      }
      return
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("web-font-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      atPath: "\(fonts)/DejaVuSerif-Bold.ttf",
      toPath: folder.appendingPathComponent("probe.ttf").path
    )
    func page(_ family: String) -> WebPage {
      WebPage(
        html: """
          <!doctype html><style>@font-face { font-family: Probe; src: url(probe.ttf); }
          body { margin: 0; font: 40px \(family); }</style><p>Frames</p>
          """,
        baseURL: folder
      )
    }
    var onDemand: [Bitmap] = []
    try await withShell { browser in
      onDemand.append(try await render(page("Probe, monospace"), in: browser))
      onDemand.append(try await render(page("monospace"), in: browser))
    }
    #expect(onDemand[0] != onDemand[1], "the web font was not drawn")
    let ownPace = try await withShell(framesOnDemand: false) { browser in
      try await render(page("Probe, monospace"), in: browser)
    }
    #expect(onDemand[0] == ownPace)
  }

  /// A frame that waits on a page's script busy in a loop does not come back: the snapshot fails
  /// once the frame's deadline has passed, saying so, instead of waiting for the assertion's
  /// timeout.
  @Test func aFrameTheShellDoesNotProduceFailsTheSnapshotInTime() async throws {
    let busy = WebPage(
      html: """
        <!doctype html><body><script>
        requestAnimationFrame(() => { const end = Date.now() + 8000; while (Date.now() < end) {} });
        </script></body>
        """
    )
    try await withShell(frameDeadline: 1) { browser in
      do {
        _ = try await render(busy, in: browser)
        Issue.record("the snapshot was taken")
      } catch let error as WebSnapshotError {
        #expect(error == .frameNotProduced(seconds: 1))
        #expect(
          error.description
            == "The headless shell did not produce the frame the web snapshot asked for "
            + "(HeadlessExperimental.beginFrame) within 1 second. Set SNAPSHOT_TESTING_CHROMIUM "
            + "to chromium to render with the browser's own frames."
        )
      }
      // The frame's own deadline failed it, not `render`'s 30-second watchdog (which would have
      // failed it with `.abandoned`): the error above says which.
    }
  }

  /// A frame the shell refuses with an error fails the snapshot with that error, and the next
  /// page renders.
  @Test func aFrameTheShellRefusesFailsTheSnapshotSayingSo() async throws {
    try await withShell(fault: .invalidInterval) { browser in
      do {
        _ = try await render(Self.animatedPage, in: browser)
        Issue.record("the snapshot was taken")
      } catch let error as WebSnapshotError {
        #expect(
          error.description
            == "The browser refused HeadlessExperimental.beginFrame: interval has to be greater "
            + "than 0."
        )
      }
      let bitmap = try await withHooks(fault: nil, frameDeadline: nil) {
        try await render(Self.animatedPage, in: browser)
      }
      #expect(bitmap.pixel(x: 5, y: 5) == RGBA(red: 0, green: 255, blue: 0))
    }
  }

  /// A screenshot frame that comes back without pixels is asked for again, then the browser's
  /// own capture is used, with frames driven while it waits: same pixels.
  @Test func aScreenshotFrameWithoutPixelsFallsBackToTheBrowsersCapture() async throws {
    let expected = try await withShell { browser in try await render(Self.article, in: browser) }
    let fallback = try await withShell(fault: .screenshotsWithoutPixels) { browser in
      try await render(Self.article, in: browser)
    }
    #expect(fallback == expected)
  }

  /// `chromium` (no begin-frame control) keeps drawing at its own pace.
  @Test func chromiumDrawsAtItsOwnPace() async throws {
    var environment = WebTesting.environment()
    environment[.chromium] = "chromium"
    guard let chromium = try? BrowserExecutable.locate(in: environment).get() else {
      if ProcessInfo.processInfo.environment["CI"].map({ !$0.isEmpty }) == true {
        Issue.record("chromium is not installed; CI installs it")
      }
      return
    }
    #expect(!BrowserExecutable.isHeadlessShell(chromium))
    try await withShell(executable: chromium) { browser in
      #expect(!browser.framesOnDemand)
      let bitmap = try await render(Self.animatedPage, in: browser)
      #expect(bitmap.pixel(x: 5, y: 5) == RGBA(red: 0, green: 255, blue: 0))
    }
  }

  @Test func onlyAHeadlessShellIsStartedWithBeginFrameControl() {
    let folder = URL(fileURLWithPath: "/tmp/profile")
    let own = BrowserProcess.arguments(profileFolder: folder)
    #expect(!own.contains("--enable-begin-frame-control"))
    #expect(!own.contains("--run-all-compositor-stages-before-draw"))
    let onDemand = BrowserProcess.arguments(profileFolder: folder, framesOnDemand: true)
    #expect(onDemand.contains("--enable-begin-frame-control"))
    #expect(onDemand.contains("--run-all-compositor-stages-before-draw"))
    for path in [
      "/usr/bin/chromium-headless-shell", "/opt/chrome/chrome-headless-shell",
      "/src/out/Release/headless_shell",
    ] {
      #expect(BrowserExecutable.isHeadlessShell(path), "\(path)")
    }
    for path in ["/usr/bin/chromium", "/usr/bin/google-chrome", "/opt/headless-shell/chrome"] {
      #expect(!BrowserExecutable.isHeadlessShell(path), "\(path)")
    }
  }

  // MARK: Pages

  /// Red until its first animation frame turns it green; then redraws in every frame, forever,
  /// counting them.
  static let animatedPage = WebPage(
    html: """
      <!doctype html><body style="margin:0;background:#f00"><script>
      window.frameCount = 0;
      const tick = () => {
        window.frameCount += 1;
        document.body.style.background = '#0f0';
        document.body.textContent = '';
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      </script></body>
      """
  )

  static let article = WebPage(
    html: """
      <!doctype html><html lang=en><style>body { font: 14px/1.4 sans-serif; margin: 16px }
      td { border: 1px solid #888; padding: 2px 6px }</style>
      <h1>Frames</h1><p>Some text to draw, with <b>bold</b> and <i>italic</i> runs.</p>
      <table><tr><td>one</td><td>1.00</td></tr><tr><td>two</td><td>2.00</td></tr></table>
      <svg width="120" height="60"><circle cx="30" cy="30" r="25" fill="#36c"/>
      <rect x="60" y="10" width="50" height="40" fill="#c63"/></svg>
      <div style="height: 900px; background: linear-gradient(#fff, #ccc)"></div>
      """
  )

  /// The times of the next three animation frames, from the page.
  static let threeMoreFrames = """
    new Promise((done) => {
      const times = [];
      const next = (time) => {
        times.push(time);
        if (times.length === 3) { done(times); } else { requestAnimationFrame(next); }
      };
      requestAnimationFrame(next);
    })
    """

  // MARK: Helpers

  /// Runs `body` with a browser of its own at `executable` (the shell), frames on demand unless
  /// `framesOnDemand` is false, with `fault` provoked in its pages; stops it afterwards.
  private func withShell<Output>(
    executable: String? = HeadlessShell.path,
    framesOnDemand: Bool = true,
    fault: PageFrames.Fault? = nil,
    frameDeadline: Double? = nil,
    _ body: (Browser) async throws -> Output
  ) async throws -> Output {
    let executable = try #require(executable, "chromium-headless-shell is not on PATH")
    var environment = WebTesting.environment()
    environment[.chromium] = executable
    let shared = SharedBrowser()
    let browser = try await RunEnvironment.withOverride(environment) {
      try await TestHooks.with(SharedBrowser.FramesOnDemand.self, framesOnDemand) {
        try await shared.browser()
      }
    }
    let result: Result<Output, any Error>
    do {
      result = .success(
        try await withHooks(fault: fault, frameDeadline: frameDeadline) { try await body(browser) }
      )
    } catch {
      result = .failure(error)
    }
    await shared.stop()
    return try result.get()
  }

  private func withHooks<Output>(
    fault: PageFrames.Fault?,
    frameDeadline: Double?,
    _ body: () async throws -> Output
  ) async throws -> Output {
    try await TestHooks.with(PageFrames.Faults.self, (fault, frameDeadline)) {
      try await body()
    }
  }

  /// `page` loaded, settled and captured in a page of `browser`, as a snapshot does it.
  private func render(
    _ page: WebPage,
    in browser: Browser,
    screenshot: PageScreenshot = PageScreenshot(fullPage: false, element: nil, masking: [])
  ) async throws(WebSnapshotError) -> Bitmap {
    let loader = PageLoader(page: page, width: 320, height: 240, note: { _ in })
    let session = try await PageSession.open(in: browser, viewport: try loader.viewport())
    // A page that never settles fails here rather than hanging the suite.
    let watchdog = Task {
      try await Task.sleep(nanoseconds: 30_000_000_000)
      session.fail(.abandoned)
    }
    defer {
      watchdog.cancel()
      session.close()
    }
    if let file = try await loader.load(into: session) {
      try? FileManager.default.removeItem(at: file)
    }
    return try await screenshot.take(session)
  }

  private func frameCount(_ session: PageSession) async throws -> Int {
    try await session.evaluate("window.frameCount").message("result")?.int("value") ?? -1
  }
}

/// The headless shell on `PATH`, if any.
enum HeadlessShell {
  static let path: String? = {
    var environment = WebTesting.environment()
    environment[.chromium] = "chromium-headless-shell"
    return try? BrowserExecutable.locate(in: environment).get()
  }()

  /// On CI, which installs the shell, a missing one fails these tests rather than skipping them.
  static let runs = WebTesting.suitesRun(
    browserFound: path != nil,
    environment: ProcessInfo.processInfo.environment
  )
}
