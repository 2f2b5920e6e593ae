import ChildProcesses
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A headless Chromium started with `--remote-debugging-pipe`: it reads commands on its fd 3 and
/// writes replies on its fd 4.
///
/// Started through ChildSpawn, the package's one way to start a program, because Foundation's
/// `Process` cannot hand a child descriptors 3 and 4. When this process dies, however it dies (SIGKILL included), the
/// browser dies too, twice over: on Linux the kernel kills it (it is started with
/// `PR_SET_PDEATHSIG`), even one that never answers; and only the browser holds the far ends of
/// the two pipes, so the kernel closes ours, the browser reads end-of-file and exits with its
/// helper processes. The browser runs in a process group of its own, which ``terminate()``
/// kills as a whole.
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): it waits with `waitid`
/// (`WNOWAIT`), so that a process id already reaped is never signalled, and reads SIGPIPE's
/// action with `sigaction` before ignoring it.
final class BrowserProcess: @unchecked Sendable {
  /// The variable a browser and its helpers carry in their environment: the process identifier
  /// of the process that started them (tests count leftover browsers with it).
  static let ownerVariable = "SNAPSHOT_TESTING_BROWSER_OWNER"

  let processIdentifier: pid_t
  /// Our end of the command pipe (the browser's fd 3).
  let commandDescriptor: Int32
  /// Our end of the reply pipe (the browser's fd 4).
  let replyDescriptor: Int32
  /// The browser's own temporary folder (its profile, its log, and what the pages it opens
  /// keep there), removed when it is terminated.
  let profileFolder: URL
  /// Where the browser's own log goes.
  let logFile: URL

  private init(
    processIdentifier: pid_t,
    commandDescriptor: Int32,
    replyDescriptor: Int32,
    profileFolder: URL,
    logFile: URL
  ) {
    self.processIdentifier = processIdentifier
    self.commandDescriptor = commandDescriptor
    self.replyDescriptor = replyDescriptor
    self.profileFolder = profileFolder
    self.logFile = logFile
  }

  /// The proxy that everything but loopback is sent to: a name under `.invalid`, which never
  /// resolves (and the resolver rules would refuse it anyway).
  static let deadEnd = "http://no-network.invalid:9"

  /// No name is looked up but localhost's, and no address is used but loopback's (`127.*` and
  /// `::ffff:7f*`, 127.0.0.0/8 mapped into IPv6, as literal addresses; a name that merely begins
  /// with `127.` is not loopback, and the proxy above sends it nowhere).
  static let resolverRules = [
    "MAP * ~NOTFOUND", "EXCLUDE localhost", "EXCLUDE *.localhost", "EXCLUDE 127.*",
    "EXCLUDE ::1", "EXCLUDE [::1]", "EXCLUDE ::ffff:7f*", "EXCLUDE [::ffff:7f*",
  ].joined(separator: ", ")

  /// The command line after the executable.
  static func arguments(
    profileFolder: URL,
    walls: NetworkWalls = .current,
    framesOnDemand: Bool = false
  ) -> [String] {
    var arguments = [
      "--headless",
      "--remote-debugging-pipe",
      "--user-data-dir=\(profileFolder.path)",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-extensions",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-default-apps",
      "--mute-audio",
      // Pages of other tests' contexts must not be throttled while this one waits.
      "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows",
      "--disable-background-timer-throttling",
      // Each browser context is a window of its own, and Chromium would start a second
      // renderer for it, preloading the address bar's pop-up: for a snapshot, that is more work
      // than the page. And no spare renderer started ahead for a context that closes next.
      "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI,AimEnabled,SpareRendererForSitePerProcess,"
        // The browser's own traffic: hints and models, casting, translation, autofill, logs.
        + "OptimizationHints,OptimizationHintsFetching,OptimizationGuideModelDownloading,"
        + "OptimizationTargetPrediction,MediaRouter,DialMediaRouteProvider,Translate,"
        + "AutofillServerCommunication,CertificateTransparencyComponentUpdater",
      "--disable-client-side-phishing-detection",
      "--disable-domain-reliability",
      "--disable-breakpad",
      "--no-pings",
      "--dns-prefetch-disable",
      "--metrics-recording-only",
      // A screenshot on a surface of its own, without waiting for the page's next frame.
      "--enable-features=CDPScreenshotNewSurface",
      // No first window and tab: every snapshot opens its own.
      "--no-startup-window",
      "--hide-scrollbars",
      "--force-color-profile=srgb",
      "--password-store=basic",
      "--use-mock-keychain",
    ]
    if walls.contains(.browserRule) {
      arguments += [
        // The second wall, behind the interception of every target's requests: whatever is not
        // loopback goes to a proxy that cannot exist (Chromium never sends loopback through a
        // proxy), and no name but localhost's is ever looked up, so that nothing the interception
        // could miss (a preconnect, the browser's own background traffic) leaves the machine.
        "--proxy-server=\(deadEnd)",
        "--host-resolver-rules=\(resolverRules)",
        // WebRTC may send UDP only through the proxy, that is nowhere.
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      ]
    }
    if framesOnDemand {
      arguments += frameControlArguments
      // The shell's compositor in the browser process rather than a GPU process of its own:
      // 12 to 16 % less processor time a warm snapshot, which on two cores bounds how fast
      // snapshots follow one another (the Performance article). Its frames are issued one at a
      // time, so the compositor's known fault (two frames in flight) cannot end the browser.
      arguments.append("--in-process-gpu")
    }
    // Chromium's sandbox refuses to run as root, which containers and CI jobs often are.
    if geteuid() == 0 { arguments.append("--no-sandbox") }
    return arguments
  }

  /// Frames on demand (the headless shell only): pages draw when a snapshot issues a frame, and
  /// a frame runs every stage of the compositor before it is drawn, which
  /// `HeadlessExperimental.beginFrame` requires. The flags the shell's `--deterministic-mode`
  /// stands for, without its other effects.
  static let frameControlArguments = [
    "--enable-begin-frame-control",
    "--run-all-compositor-stages-before-draw",
    // A frame waits for the page's new content rather than showing the old after a timeout.
    "--disable-new-content-rendering-timeout",
    // Animations, scrolling and image decoding on the page's main thread, in the frame issued.
    "--disable-threaded-animation",
    "--disable-threaded-scrolling",
    "--disable-checker-imaging",
    "--disable-image-animation-resync",
  ]

  /// Starts the browser at `path`, drawing frames only on demand when `framesOnDemand`.
  static func start(
    path: String,
    framesOnDemand: Bool = false
  ) throws(WebSnapshotError) -> BrowserProcess {
    ignoreBrokenPipes()
    removeFoldersOfDeadProcesses()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("snapshot-testing-chromium-\(getpid())-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw .browserDidNotStart(path: path, reason: "cannot create \(folder.path): \(error)")
    }
    let profile = folder.appendingPathComponent("profile")
    let log = folder.appendingPathComponent("chromium.log")

    // Our ends are close-on-exec and above the browser's 3 and 4, so that neither the browser nor
    // anything else this process starts inherits them: the browser must see end-of-file when we
    // are gone.
    guard let commands = ChildSpawn.makePipe(numberedFrom: 10),
      let replies = ChildSpawn.makePipe(numberedFrom: 10)
    else {
      throw .browserDidNotStart(path: path, reason: "cannot create a pipe: errno \(errno)")
    }
    var environment = ProcessInfo.processInfo.environment
    environment[ownerVariable] = String(getpid())
    let spawned = ChildSpawn.spawn(
      path: path,
      arguments: arguments(profileFolder: profile, framesOnDemand: framesOnDemand),
      environment: environment,
      descriptors: [
        .open(path: "/dev/null", flags: O_RDONLY, as: 0),
        .open(path: log.path, flags: O_WRONLY | O_CREAT | O_APPEND, as: 1),
        .copy(of: 1, as: 2),
        .copy(of: commands.read, as: 3),
        .copy(of: replies.write, as: 4),
      ]
    )
    close(commands.read)
    close(replies.write)
    let pid: pid_t
    switch spawned {
    case .success(let started):
      pid = started
    case .failure(let failure):
      close(commands.write)
      close(replies.read)
      throw .browserDidNotStart(path: path, reason: String(cString: strerror(failure.code)))
    }
    return BrowserProcess(
      processIdentifier: pid,
      commandDescriptor: commands.write,
      replyDescriptor: replies.read,
      profileFolder: folder,
      logFile: log
    )
  }

  /// A command written just after the browser died would raise SIGPIPE, whose default action
  /// ends the test process; the write should fail instead (EPIPE), which the connection reports.
  /// Changed only while SIGPIPE has its default action, so a handler the tests set stays.
  private static func ignoreBrokenPipes() {
    var current = sigaction()
    guard sigaction(SIGPIPE, nil, &current) == 0 else { return }
    #if canImport(Glibc) || canImport(Musl)
      let isDefault = current.__sigaction_handler.sa_handler == nil
    #else
      let isDefault = current.__sigaction_u.__sa_handler == nil
    #endif
    if isDefault { signal(SIGPIPE, SIG_IGN) }
  }

  /// Removes the browser folders that test processes killed before they could clean up left in
  /// the temporary folder (their names carry the process identifier).
  private static func removeFoldersOfDeadProcesses() {
    let temporary = FileManager.default.temporaryDirectory
    let prefix = "snapshot-testing-chromium-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
    for name in names where name.hasPrefix(prefix) {
      guard let owner = pid_t(name.dropFirst(prefix.count).prefix { $0 != "-" }),
        owner != getpid(), kill(owner, 0) != 0, errno == ESRCH
      else { continue }
      try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
    }
  }

  /// The last lines the browser logged, for a message.
  func logTail(lines: Int = 3) -> String {
    guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return "" }
    let kept = text.split(separator: "\n").filter { !$0.contains("dbus") }.suffix(lines)
    return kept.joined(separator: "\n")
  }

  /// Whether ``waitForExit()`` reaped the browser: its process id may then belong to another
  /// process, which ``terminate()`` must never signal.
  private let reapedLock = NSLock()
  private var reaped = false

  /// Waits for the browser to exit and says how it ended. Call it once, from one thread.
  func waitForExit() -> String {
    var status: Int32 = 0
    var result: pid_t
    repeat {
      // Waited for without reaping first, so that the group can still be killed while the id
      // is ours; then reaped under the lock `terminate()` takes.
      var info = siginfo_t()
      result = waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT)
    } while result < 0 && errno == EINTR
    reapedLock.lock()
    // Helpers the browser left behind would hold the pipes open.
    ChildSpawn.killGroup(processIdentifier)
    repeat {
      result = waitpid(processIdentifier, &status, 0)
    } while result < 0 && errno == EINTR
    reaped = true
    reapedLock.unlock()
    guard result == processIdentifier else { return "it exited" }
    switch ChildSpawn.termination(fromWaitStatus: status) {
    case .exited(let code): return "exit status \(code)"
    case .signaled(let signal): return "killed by signal \(signal)"
    // Only a runner's deadline says this; a wait status never does.
    case .timedOut: return "it exited"
    }
  }

  /// Kills the browser's process group (the browser and the helpers it started) and removes its
  /// profile. The connection's watcher reaps the process and closes the pipes.
  func terminate() {
    reapedLock.withLock {
      guard !reaped else { return }
      ChildSpawn.killGroup(processIdentifier)
      kill(processIdentifier, SIGKILL)
    }
    try? FileManager.default.removeItem(at: profileFolder)
  }
}
