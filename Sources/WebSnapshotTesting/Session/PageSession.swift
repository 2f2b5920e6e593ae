import Foundation
import RunRecord

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One page in a browser context of its own, attached with a flat session: what one assertion
/// renders. The context may have held earlier pages (see ``SharedBrowser``), never two at once. It answers the page's paused requests (loopback, `file:` and `data:` go on, the rest
/// is blocked and remembered), and those of every frame and worker the page makes (see
/// ``TargetGuard``), remembers uncaught script errors, and fails everything waiting on it when
/// the page crashes, the browser goes away or the assertion gives up.
final class PageSession: DevToolsSessionListener, RequestGuardOwner, @unchecked Sendable {
  let connection: DevToolsConnection
  let contextIdentifier: String
  let targetIdentifier: String
  let sessionIdentifier: String
  /// The frames the snapshot issues, when the page draws only on demand (the headless shell);
  /// `nil` when it draws at the browser's own pace.
  let frames: PageFrames?

  private let lock = NSLock()
  private var firedEvents: Set<String> = []
  private var eventWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
  private var failure: WebSnapshotError?
  private var blockedURLs: [String] = []
  private var scriptErrors: [String] = []
  private var childSessions: [String] = []
  /// The windows with an opener the page opened, being named before they fail it.
  private var windowsBeingNamed: [Task<Void, Never>] = []
  /// Why the page's context may hold state past the page (a request that may have filled its
  /// HTTP cache, a frame or worker of its own, a download, a failure), if anything did.
  private var contextTouch: String?
  /// The main frame, and the address of the document it was given.
  private var mainFrame: String?
  private var document: String?

  /// The open pages by browser context, for the targets the browser attaches on its own.
  private static let pages = Locked<[String: WeakPage]>([:])

  private struct WeakPage {
    weak var page: PageSession?
  }

  /// The open page of the browser context `context`, if any.
  static func page(ofContext context: String) -> PageSession? {
    pages.withLock { $0[context]?.page }
  }

  private init(
    connection: DevToolsConnection,
    context: String,
    target: String,
    session: String,
    frames: PageFrames?
  ) {
    self.connection = connection
    self.contextIdentifier = context
    self.targetIdentifier = target
    self.sessionIdentifier = session
    self.frames = frames
  }

  /// What every page gets before it loads anything: the domains whose events the package reads
  /// and the emulation that does not depend on the strategy. Request interception follows, once
  /// the blank document is loaded.
  static var setup: [(String, [String: Any])] {
    [
      ("Page.enable", [:]),
      ("Runtime.enable", [:]),
      ("Inspector.enable", [:]),
      // Speculation rules prefetch outside interception: their rules and prefetches are seen.
      ("Preload.enable", [:]),
      ("Emulation.setTimezoneOverride", ["timezoneId": "UTC"]),
      ("Emulation.setLocaleOverride", ["locale": "en-US"]),
      (
        "Emulation.setEmulatedMedia",
        ["features": [["name": "prefers-reduced-motion", "value": "reduce"]]]
      ),
    ]
      + (NetworkWalls.current.contains(.interception)
        // Every frame and worker the page makes is attached paused, and intercepted before it
        // runs.
        ? [TargetGuard.autoAttach, TargetGuard.webSocketWatch] : [])
  }

  /// Opens a page in `browser`, set up for a snapshot at `viewport`, with the browser's blank
  /// document loaded: the page's renderer has started, and the first layout at that size is
  /// done, so that what is left is the snapshot's own work. The page opens in `context`, an
  /// emptied context of an earlier page, or else in a new one.
  static func open(
    in browser: Browser,
    context: String? = nil,
    viewport: Viewport
  ) async throws(WebSnapshotError) -> PageSession {
    let connection = browser.connection
    let contextIdentifier: String
    if let context {
      contextIdentifier = context
    } else {
      let created = try await connection.send(
        "Target.createBrowserContext",
        ["disposeOnDetach": true]
      )
      guard let identifier = created.string("browserContextId") else {
        throw .malformedReply(method: "Target.createBrowserContext", detail: "no browserContextId")
      }
      contextIdentifier = identifier
    }
    do throws(WebSnapshotError) {
      // No window size: a window smaller than the browser's minimum counts as hidden, and a
      // hidden page never runs animation frames. The viewport is emulated instead.
      var parameters: [String: Any] = ["url": "about:blank", "browserContextId": contextIdentifier]
      // A new context's window at a fixed place: `chromium` cascades them (`screenX` 10, 20, …),
      // which a page can read and draw. A kept context keeps its window, and its place.
      if context == nil {
        parameters["left"] = 0
        parameters["top"] = 0
      }
      if browser.framesOnDemand { parameters["enableBeginFrameControl"] = true }
      let target = try await connection.send("Target.createTarget", parameters)
      guard let targetIdentifier = target.string("targetId") else {
        throw .malformedReply(method: "Target.createTarget", detail: "no targetId")
      }
      let attached = try await connection.send(
        "Target.attachToTarget",
        ["targetId": targetIdentifier, "flatten": true]
      )
      guard let sessionIdentifier = attached.string("sessionId") else {
        throw .malformedReply(method: "Target.attachToTarget", detail: "no sessionId")
      }
      let session = PageSession(
        connection: connection,
        context: contextIdentifier,
        target: targetIdentifier,
        session: sessionIdentifier,
        frames: browser.framesOnDemand ? PageFrames(gate: browser.frameGate) : nil
      )
      connection.addListener(session, for: sessionIdentifier)
      Self.pages.withLock { $0[contextIdentifier] = WeakPage(page: session) }
      do throws(WebSnapshotError) {
        try await session.sendAll(setup + [viewport.command])
        try await session.navigate(to: browser.blankDocument.absoluteString)
        // Interception starts once the blank document is in. Only requests that could leave
        // the machine are paused (`file:`, `data:` and `blob:` never do), so that a page's
        // local files load without a round trip through this process each.
        if NetworkWalls.current.contains(.interception) {
          try await session.send("Fetch.enable", ["patterns": TargetGuard.interceptedPatterns])
        }
      } catch {
        session.close()
        throw error
      }
      return session
    } catch {
      connection.post("Target.disposeBrowserContext", ["browserContextId": contextIdentifier])
      throw error
    }
  }

  /// Sends a command to the page.
  @discardableResult
  func send(
    _ method: String,
    _ params: [String: Any] = [:]
  ) async throws(WebSnapshotError) -> JSONMessage {
    if let failure = lock.withLock({ failure }) { throw failure }
    return try await connection.send(method, params, sessionId: sessionIdentifier)
  }

  /// Sends several commands at once and waits for all their replies: one round trip instead of
  /// one per command.
  func sendAll(_ commands: [(String, [String: Any])]) async throws(WebSnapshotError) {
    try throwIfFailed()
    _ = try await connection.sendTogether(commands.map { ($0.0, $0.1, sessionIdentifier) })
  }

  /// Navigates to `address` and waits for its `load` event.
  func navigate(to address: String) async throws(WebSnapshotError) {
    try await startNavigating(to: address)
    try await waitForEvent("Page.loadEventFired")
  }

  /// Starts the navigation to `address` (a failure names it `name`, if given); the events seen
  /// before are forgotten, so that ``waitForEvent(_:)`` waits for this document's.
  func startNavigating(to address: String, named name: String? = nil) async throws(WebSnapshotError)
  {
    forgetEvents()
    let navigation = try await send("Page.navigate", ["url": address])
    if let frame = navigation.string("frameId") {
      lock.withLock {
        mainFrame = frame
        document = address
      }
    }
    if let errorText = navigation.string("errorText"), !errorText.isEmpty {
      throw .loadFailed(url: name ?? address, reason: errorText)
    }
  }

  /// Evaluates `expression` in the page and returns its value (awaiting a promise).
  func evaluate(_ expression: String) async throws(WebSnapshotError) -> JSONMessage {
    try await evaluate(expression, parameters: [:])
  }

  /// Evaluates `expression` in the main frame's document, in a world of its own: the page's
  /// scripts cannot have changed the globals it sees.
  func evaluateIsolated(_ expression: String) async throws(WebSnapshotError) -> JSONMessage {
    guard let frame = mainFrameIdentifier else {
      throw .malformedReply(method: "Page.createIsolatedWorld", detail: "no main frame")
    }
    let world = try await send(
      "Page.createIsolatedWorld",
      ["frameId": frame, "worldName": "snapshot-testing"]
    )
    guard let context = world.int("executionContextId") else {
      throw .malformedReply(method: "Page.createIsolatedWorld", detail: "no executionContextId")
    }
    return try await evaluate(expression, parameters: ["contextId": context])
  }

  private func evaluate(
    _ expression: String,
    parameters: [String: Any]
  ) async throws(WebSnapshotError) -> JSONMessage {
    var parameters = parameters
    parameters["expression"] = expression
    parameters["awaitPromise"] = true
    parameters["returnByValue"] = true
    let reply = try await send("Runtime.evaluate", parameters)
    if let exception = reply.message("exceptionDetails") {
      let text =
        exception.message("exception")?.string("description") ?? exception.string("text")
        ?? "an exception"
      throw .protocolError(method: "Runtime.evaluate", message: text)
    }
    return reply
  }

  /// Forgets the events seen so far (before a navigation).
  func forgetEvents() {
    lock.withLock { firedEvents = [] }
  }

  /// Returns once `method` has fired since the last ``forgetEvents()``.
  func waitForEvent(_ method: String) async throws(WebSnapshotError) {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = lock.withLock { () -> Bool in
        if firedEvents.contains(method) || failure != nil { return true }
        eventWaiters[method, default: []].append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
    if let failure = lock.withLock({ failure }) { throw failure }
  }

  /// Throws what ended the session, if anything did: a snapshot taken just as the page opened a
  /// dialog or navigated away is not handed on.
  func throwIfFailed() throws(WebSnapshotError) {
    if let failure = lock.withLock({ failure }) { throw failure }
  }

  /// The requests blocked so far.
  var blockedRequests: [String] { lock.withLock { blockedURLs } }

  /// The uncaught script errors so far.
  var uncaughtScriptErrors: [String] { lock.withLock { scriptErrors } }

  /// Why the page's context may hold state past the page, or `nil` when only the page's own
  /// storage can (which the caller checks before it hands the context to another page).
  var contextTouched: String? { lock.withLock { contextTouch } }

  /// Notes that the context may now hold state past the page.
  private func touchContext(_ reason: String) {
    lock.withLock { if contextTouch == nil { contextTouch = reason } }
  }

  /// The main frame, for a script run apart from the page's own (an isolated world).
  var mainFrameIdentifier: String? { lock.withLock { mainFrame } }

  /// Ends the session: everything waiting on it fails with `error`.
  func fail(_ error: WebSnapshotError) {
    let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      if contextTouch == nil { contextTouch = "it failed: \(error)" }
      if failure == nil { failure = error }
      defer { eventWaiters = [:] }
      return eventWaiters.values.flatMap { $0 }
    }
    for waiter in waiters { waiter.resume() }
    connection.failCommands(of: sessionIdentifier, with: error)
  }

  /// Closes the page and its browser context, without waiting.
  func close() {
    detach()
    connection.post("Target.disposeBrowserContext", ["browserContextId": contextIdentifier])
  }

  /// Stops listening to the page and forgets it as its context's page, leaving the page open
  /// (the caller closes it with `Target.closeTarget`, once another page holds the context).
  func detach() {
    let children = lock.withLock { childSessions }
    for child in children { connection.removeListener(for: child) }
    connection.removeListener(for: sessionIdentifier)
    _ = Self.pages.withLock { $0.removeValue(forKey: contextIdentifier) }
  }

  // MARK: DevToolsSessionListener

  func receive(event method: String, params: JSONMessage) {
    switch method {
    case "Fetch.requestPaused":
      // Only requests that could leave the machine are paused: loopback ones go on, and may
      // leave entries in the context's HTTP cache.
      touchContext("it made HTTP requests")
      if let url = TargetGuard.answer(
        pausedRequest: params,
        on: connection,
        session: sessionIdentifier
      ) {
        blocked(url)
      }
    case "Network.webSocketCreated", "Network.webTransportCreated":
      touchContext("it opened a WebSocket or WebTransport")
      if let url = TargetGuard.blockedWebSocket(params) { blocked(url) }
    case "Target.attachedToTarget":
      TargetGuard.guardTarget(announcedBy: params, on: connection, owner: self)
    case "Preload.ruleSetUpdated":
      // Its prefetches of loopback URLs are made outside interception, and may fill the
      // context's HTTP cache; the others go to the browser's wall and are named.
      touchContext("it has speculation rules")
    case "Preload.prefetchStatusUpdated":
      touchContext("it has speculation rules")
      if let url = params.string("prefetchUrl"), !RequestPolicy.allows(url),
        !blockedRequests.contains(url)
      {
        blocked(url)
      }
    case "Page.downloadWillBegin":
      touchContext("it started a download")
    case "Runtime.exceptionThrown":
      let details = params.message("exceptionDetails")
      let text =
        details?.message("exception")?.string("description") ?? details?.string("text")
        ?? "an exception"
      let location = details?.string("url").map { url in
        let line = (details?.int("lineNumber")).map { ":\($0 + 1)" } ?? ""
        return " (\(url)\(line))"
      }
      let firstLine = text.split(separator: "\n").first.map(String.init) ?? text
      lock.withLock { scriptErrors.append(firstLine + (location ?? "")) }
    case "Inspector.targetCrashed":
      fail(.pageCrashed("its renderer process crashed"))
    case "Page.javascriptDialogOpening":
      // Closed at once, or the page would wait for an answer until the assertion gives up.
      connection.post(
        "Page.handleJavaScriptDialog",
        ["accept": false],
        sessionId: sessionIdentifier
      )
      fail(
        .dialogOpened(
          kind: params.string("type") ?? "unknown",
          message: params.string("message") ?? ""
        )
      )
    case "Page.frameRequestedNavigation":
      // A navigation the page asked for itself (a script, a form, a refresh). Only its own
      // document may be snapshotted: the frame is the main one when it has no parent, and the
      // page's frames other than the main one may go where they like.
      guard params.string("frameId") == mainFrame,
        let target = params.string("url"),
        !isSameDocument(target)
      else { break }
      fail(.navigatedAway(target: target))
    default:
      let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
        firedEvents.insert(method)
        return eventWaiters.removeValue(forKey: method) ?? []
      }
      for waiter in waiters { waiter.resume() }
    }
  }

  func connectionClosed(_ error: WebSnapshotError) {
    fail(error)
  }

  /// Whether `target` is the document the page was given, up to its fragment: a link to an
  /// anchor of the page stays in it.
  private func isSameDocument(_ target: String) -> Bool {
    guard let document = lock.withLock({ document }) else { return false }
    func withoutFragment(_ address: String) -> Substring {
      address.prefix { $0 != "#" }
    }
    return withoutFragment(target) == withoutFragment(document)
  }

  // MARK: RequestGuardOwner

  func blocked(_ url: String) {
    lock.withLock { blockedURLs.append(url) }
  }

  func openedWindow(target: String, withOpener: Bool) {
    touchContext("it opened a window")
    guard withOpener else { return }
    // A popup that can reach the page is one the snapshot cannot hold still: it fails at once,
    // named by the address it goes to, once that is known (a popup starts at `about:blank`).
    let naming = Task(executorPreference: WebExecutor.shared) { [connection] in
      var url = ""
      for _ in 0..<8 where url.isEmpty || url == "about:blank" {
        try? await Task.sleep(nanoseconds: 50_000_000)
        let info = try? await connection.send("Target.getTargetInfo", ["targetId": target])
        url = info?.message("targetInfo")?.string("url") ?? url
      }
      connection.post("Target.closeTarget", ["targetId": target])
      self.fail(.popupWithOpener(url: url.isEmpty ? "about:blank" : url))
    }
    lock.withLock { windowsBeingNamed.append(naming) }
  }

  /// Returns once every window with an opener that the page opened has failed it (at most
  /// 0.4 seconds each): a snapshot taken as the page opened one is not handed on.
  func waitForOpenedWindows() async {
    for naming in lock.withLock({ windowsBeingNamed }) { await naming.value }
  }

  func adopt(session: String) {
    lock.withLock {
      childSessions.append(session)
      // A frame in a process of its own or a worker: its origin's storage is not the page's.
      if contextTouch == nil { contextTouch = "it made a frame or worker of its own" }
    }
  }
}
