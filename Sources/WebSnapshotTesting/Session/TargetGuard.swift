import Foundation

/// Request interception on a target that a page made: a frame in a renderer of its own, a
/// worker of any kind, a service worker. Each is attached paused (the browser's
/// `waitForDebuggerOnStart`), gets the same interception as the page, and only then runs, so
/// that not one of its requests goes out unseen.
///
/// A target's own children (a worker a frame starts) are guarded the same way, however deep.
final class TargetGuard: DevToolsSessionListener, @unchecked Sendable {
  /// What a guard reports to: the page whose snapshot it belongs to.
  typealias Owner = any RequestGuardOwner

  private let connection: DevToolsConnection
  private let sessionIdentifier: String
  private weak var owner: (any RequestGuardOwner)?

  private init(connection: DevToolsConnection, session: String, owner: Owner?) {
    self.connection = connection
    self.sessionIdentifier = session
    self.owner = owner
  }

  /// The requests that are paused: those that could leave the machine. `file:`, `data:` and
  /// `blob:` never do, and pass without a round trip through this process.
  static var interceptedPatterns: [[String: Any]] {
    [["urlPattern": "http*:*"], ["urlPattern": "ws*:*"]]
  }

  /// WebSockets and WebTransport bypass interception: the network events are what names them
  /// (the browser's wall stops them). No bodies are kept.
  static var webSocketWatch: (String, [String: Any]) {
    ("Network.enable", ["maxTotalBufferSize": 0, "maxResourceBufferSize": 0])
  }

  /// The URL of a WebSocket or WebTransport that a `Network.webSocketCreated` or
  /// `Network.webTransportCreated` event (`params`) announces, if it could leave the machine.
  static func blockedWebSocket(_ params: JSONMessage) -> String? {
    guard let url = params.string("url"), !RequestPolicy.allows(url) else { return nil }
    return url
  }

  /// The command that makes a session announce, paused, every target it creates.
  static var autoAttach: (String, [String: Any]) {
    ("Target.setAutoAttach", ["autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true])
  }

  /// Guards the target that a `Target.attachedToTarget` event (`params`) announces, then lets it
  /// run. The commands go out in order on one session, so interception is on before the target
  /// makes its first request.
  static func guardTarget(
    announcedBy params: JSONMessage,
    on connection: DevToolsConnection,
    owner: Owner?
  ) {
    guard let session = params.string("sessionId") else { return }
    let target = TargetGuard(connection: connection, session: session, owner: owner)
    connection.addListener(target, for: session)
    owner?.adopt(session: session)
    connection.post("Fetch.enable", ["patterns": interceptedPatterns], sessionId: session)
    connection.post(webSocketWatch.0, webSocketWatch.1, sessionId: session)
    connection.post(autoAttach.0, autoAttach.1, sessionId: session)
    connection.post("Runtime.runIfWaitingForDebugger", sessionId: session)
  }

  /// Lets a paused request of `session` go on if it stays on the machine; else fails it and
  /// returns its URL.
  static func answer(
    pausedRequest params: JSONMessage,
    on connection: DevToolsConnection,
    session: String
  ) -> String? {
    guard let requestIdentifier = params.string("requestId") else { return nil }
    let url = params.message("request")?.string("url") ?? ""
    if RequestPolicy.allows(url) {
      connection.post("Fetch.continueRequest", ["requestId": requestIdentifier], sessionId: session)
      return nil
    }
    connection.post(
      "Fetch.failRequest",
      ["requestId": requestIdentifier, "errorReason": "BlockedByClient"],
      sessionId: session
    )
    return url
  }

  func receive(event method: String, params: JSONMessage) {
    switch method {
    case "Fetch.requestPaused":
      if let url = Self.answer(pausedRequest: params, on: connection, session: sessionIdentifier) {
        owner?.blocked(url)
      }
    case "Network.webSocketCreated", "Network.webTransportCreated":
      if let url = Self.blockedWebSocket(params) { owner?.blocked(url) }
    case "Target.attachedToTarget":
      Self.guardTarget(announcedBy: params, on: connection, owner: owner)
    case "Target.detachedFromTarget":
      if let session = params.string("sessionId") { connection.removeListener(for: session) }
    default:
      break
    }
  }

  func connectionClosed(_ error: WebSnapshotError) {}
}

/// The page a guarded target belongs to: told of each request blocked, each session attached
/// (to detach them when the page closes) and each window opened.
protocol RequestGuardOwner: AnyObject, Sendable {
  func blocked(_ url: String)
  func adopt(session: String)
  /// The page opened the page `target`, which can reach it through `window.opener` when
  /// `withOpener`.
  func openedWindow(target: String, withOpener: Bool)
}

/// Guards the targets the browser itself announces, all attached paused: the pages a page opens
/// (popups, links and forms with `target=_blank`), service workers and shared workers belong to
/// a browser context, not to a page. Each is guarded as the page's own frames are and reports to
/// the page of its context; one whose context has no page (its snapshot is over) is closed
/// before it runs. The pages ``PageSession`` opens itself are let run and left to it.
final class BrowserTargetWatcher: DevToolsSessionListener, @unchecked Sendable {
  private let connection: DevToolsConnection

  init(connection: DevToolsConnection) {
    self.connection = connection
  }

  /// The browser-level auto-attach: every target but tabs and the browser.
  static var command: (String, [String: Any]) {
    var params = TargetGuard.autoAttach.1
    params["filter"] = [
      ["type": "tab", "exclude": true], ["type": "browser", "exclude": true], [String: Any](),
    ]
    return (TargetGuard.autoAttach.0, params)
  }

  func receive(event method: String, params: JSONMessage) {
    switch method {
    case "Target.attachedToTarget":
      // A target attached by a command (a page's own session) is not paused, and is its owner's.
      guard params.bool("waitingForDebugger") == true, let session = params.string("sessionId")
      else { break }
      let info = params.message("targetInfo")
      let isPage = info?.string("type") == "page"
      if isPage && info?.string("openerId") == nil {
        // A page `Target.createTarget` made: ``PageSession`` attaches to it itself.
        connection.post("Runtime.runIfWaitingForDebugger", sessionId: session)
        connection.post("Target.detachFromTarget", ["sessionId": session])
        break
      }
      let context = info?.string("browserContextId")
      guard let owner = context.flatMap(PageSession.page(ofContext:)) else {
        // Nothing may run in a context whose snapshot is over.
        if let target = info?.string("targetId") {
          connection.post("Target.closeTarget", ["targetId": target])
        }
        break
      }
      TargetGuard.guardTarget(announcedBy: params, on: connection, owner: owner)
      if isPage, let target = info?.string("targetId") {
        owner.openedWindow(target: target, withOpener: info?.bool("canAccessOpener") == true)
      }
    case "Target.detachedFromTarget":
      if let session = params.string("sessionId") { connection.removeListener(for: session) }
    default:
      break
    }
  }

  func connectionClosed(_ error: WebSnapshotError) {}
}
