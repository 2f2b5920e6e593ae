import Foundation
import RunRecord

/// An HTTP request as ``ServedReport`` sees it, once ``ReportServer`` has read and checked its
/// head (``HTTPRequestHead``): every rule here is tested without a socket.
package struct ServedRequest: Sendable {
  package var method: String
  /// The path without its query (`/api/resolve`).
  package var path: String
  package var query: [String: String]
  /// Header names in lower case.
  package var headers: [String: String]
  package var body: Data

  package init(
    method: String,
    path: String,
    query: [String: String] = [:],
    headers: [String: String] = [:],
    body: Data = Data()
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) },
      uniquingKeysWith: { $1 }
    )
    self.body = body
  }
}

/// What ``ServedReport`` answers.
package struct ServedResponse: Sendable, Equatable {
  package var status: Int
  package var contentType: String
  package var body: Data

  static func text(_ status: Int, _ text: String) -> Self {
    Self(status: status, contentType: "text/plain; charset=utf-8", body: Data((text + "\n").utf8))
  }

  static func json(_ status: Int, _ value: some Encodable) -> Self {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return Self(status: status, contentType: "application/json", body: body)
  }
}

/// The served report (`snapshot-testing report --serve`): the report page with Accept and Reject
/// buttons, and the requests they send, answered by the same code as the `accept` and `reject`
/// commands.
///
/// Every request is refused with 403 unless its `Host` is this server's loopback address
/// (`127.0.0.1:<port>` or `localhost:<port>`: a DNS-rebinding page has another), and an `Origin`,
/// when sent, is this server's own. Every request that changes a file must also carry the token
/// the page was served with (header `X-Snapshot-Testing-Token`), random and new each time the
/// server starts, so another site open in the same browser cannot accept snapshots. Files are
/// served only from inside the artifacts folders and the package.
package final class ServedReport: @unchecked Sendable {
  /// The header that carries the token.
  package static let tokenHeader = "x-snapshot-testing-token"

  package let token: String
  let session: ReviewSession
  let filters: [String]
  private let lock = NSLock()
  private var port = 0
  /// Held for a whole decision, apart from `lock`, so that every other request (each reads the
  /// port) never waits behind a long "Accept all shown".
  private let decisionLock = NSLock()

  /// A report of `session`'s failures that match `filters`, with a new random token.
  package init(session: ReviewSession, filters: [String], token: String = ServedReport.newToken()) {
    self.session = session
    self.filters = filters
    self.token = token
  }

  /// 32 random bytes, in hexadecimal.
  package static func newToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator))
    }
    .joined()
  }

  /// The port the server listens on, once it is known: requests name it in `Host`.
  package var listeningPort: Int {
    get { lock.withLock { port } }
    set { lock.withLock { port = newValue } }
  }

  /// The page's address.
  package var url: String { "http://127.0.0.1:\(listeningPort)/" }

  /// Answers `request`.
  package func respond(to request: ServedRequest) -> ServedResponse {
    if let refusal = foreignRefusal(request) { return .text(403, refusal) }
    switch (request.method, request.path) {
    case ("GET", "/"), ("HEAD", "/"):
      return page(request.query["page"])
    case ("GET", "/api/state"):
      return .json(200, state())
    case ("GET", "/file"):
      return file(request.query["path"] ?? "")
    case ("POST", "/api/resolve"):
      guard let sent = request.headers[Self.tokenHeader], constantTimeEqual(sent, token) else {
        return .text(
          403,
          "Refused: a request that changes files must carry the token of the page this server "
            + "served (header X-Snapshot-Testing-Token). Reload the page; nothing was changed."
        )
      }
      return resolve(request.body)
    case (_, "/"), (_, "/api/state"), (_, "/file"), (_, "/api/resolve"):
      return .text(405, "Method \(request.method) is not allowed here.")
    default:
      return .text(404, "Not found: \(request.path)")
    }
  }

  /// Whether a request with these headers comes from the served page (its Host and Origin are
  /// this server's); the server reads a request's body only then.
  package func isOwnPage(headers: [String: String]) -> Bool {
    let lowercased = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) },
      uniquingKeysWith: { first, _ in first }
    )
    return foreignRefusal(
      ServedRequest(method: "POST", path: "/", headers: lowercased)
    ) == nil
  }

  /// Why a request from elsewhere is refused, or `nil`.
  private func foreignRefusal(_ request: ServedRequest) -> String? {
    let port = listeningPort
    let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
    guard let host = request.headers["host"], hosts.contains(host.lowercased()) else {
      return "Refused: the Host header must be \(hosts[0]); this server answers only its own page."
    }
    if let origin = request.headers["origin"], !hosts.contains(where: { "http://\($0)" == origin })
    {
      return "Refused: requests from \(origin) are not accepted; only the served page may ask."
    }
    return nil
  }

  // MARK: - Reading

  private func pending() -> (failures: [PendingFailure], all: PendingFailures) {
    let all = PendingFailures.load(
      artifactsRoots: session.artifactsRoots,
      packageRoot: session.hints.packageRoot,
      includingOtherPackages: session.includesOtherPackages
    )
    let filter = FailureFilter(filters, packageRoot: session.hints.packageRoot)
    return (all.failures.filter(filter.matches), all)
  }

  /// How many failures a served page shows: with thousands pending, the page stays quick to
  /// make and to open, and the others are a link away (`/?page=2`, …).
  package static let pageSize = 100

  /// One page of the failures (`page` is the query's value, 1 if absent; past the last page is
  /// the last page, so a page emptied by decisions still shows what is left).
  private func page(_ requested: String?) -> ServedResponse {
    var number = 1
    if let requested {
      guard let parsed = Int(requested), parsed >= 1 else {
        return .text(
          400,
          "The page must be a whole number from 1 (as in /?page=2); got “\(requested)”."
        )
      }
      number = parsed
    }
    let (failures, state) = scanned()
    var report = HTMLReport(
      failures: failures,
      hints: session.hints,
      artifactsRoot: session.artifactsRoot
    )
    report.additionalArtifactsRoots = session.additionalArtifactsRoots
    // The stamp of the same reading as the failures, which the poll answers while nothing
    // changes: a page never sees itself as out of date.
    report.served = HTMLReport.Served(token: token, stamp: state.stamp)
    let pages = max(1, (failures.count + Self.pageSize - 1) / Self.pageSize)
    report.page = HTMLReport.Page(number: min(number, pages), size: Self.pageSize)
    return ServedResponse(
      status: 200,
      contentType: "text/html; charset=utf-8",
      body: Data(report.render().utf8)
    )
  }

  /// What the page polls: whether the artifacts changed since it was served.
  struct State: Encodable {
    var stamp: String
    var pending: Int
    /// The artifacts folders that no longer exist.
    var missingFolders: [String]
  }

  /// The last state computed and the failures read for it, and the folders as they were just
  /// before: while they are unchanged, the poll and the pages answer from this without listing a
  /// folder or reading a record.
  private struct PolledState {
    var folders: RecordsFoldersSignature
    /// When the scan began, in nanoseconds since 1970.
    var scanned: Int
    var state: State
    var failures: [PendingFailure]
  }

  private var polled: PolledState?
  private var scans = 0
  private let scanLock = NSLock()

  /// Reads the records ahead of the first request: `report --serve` calls it on a thread of its
  /// own as it starts, so that the page opened a moment later answers from that reading (with
  /// 5,000 failures, reading them takes about a second).
  package func prepare() { _ = scanned() }

  /// How many times the poll listed the folders and read the records (for tests).
  var stateScans: Int { lock.withLock { scans } }

  /// How long after a folder's last change its state is trusted to stay as scanned: a folder's
  /// times come from a clock that advances in steps of a few milliseconds, so a change within
  /// the same step as the scan would leave them as they were.
  static let settleNanoseconds = 1_000_000_000

  /// What the poll answers: with 5,000 records, rescanning them took seconds, so the answer is
  /// kept while the folders are as they were (one `stat` each).
  private func state() -> State { scanned().state }

  /// The failures that match the filters and the state with them, read again only when a
  /// records folder changed: paging through 5,000 failures reads them once.
  private func scanned() -> (failures: [PendingFailure], state: State) {
    // One scan at a time: a request that comes during a scan (the one `prepare()` started)
    // waits for it and answers from it instead of reading every record a second time.
    scanLock.withLock { scannedNow() }
  }

  private func scannedNow() -> (failures: [PendingFailure], state: State) {
    let roots = session.artifactsRoots
    let folders = RecordsFoldersSignature(roots)
    let now = Int(Date().timeIntervalSince1970 * 1e9)
    if let polled = lock.withLock({ self.polled }), polled.folders == folders,
      polled.scanned - folders.latestChange > Self.settleNanoseconds
    {
      return (polled.failures, polled.state)
    }
    let failures = pending().failures
    let state = State(
      stamp: ArtifactsStamp.of(roots),
      pending: failures.count,
      missingFolders: roots.map(\.path).filter { !FileManager.default.fileExists(atPath: $0) }
    )
    lock.withLock {
      scans += 1
      polled = PolledState(folders: folders, scanned: now, state: state, failures: failures)
    }
    return (failures, state)
  }

  /// A file from inside an artifacts folder or the package, for images too large to embed.
  private func file(_ path: String) -> ServedResponse {
    let allowed = session.artifactsRoots.map(\.path) + [session.hints.packageRoot.path]
    guard !path.isEmpty, allowed.contains(where: { isInside(path, folder: $0) }) else {
      return .text(
        403,
        "Refused: \(path) is outside the artifacts folders and the package."
      )
    }
    guard SystemCalls.isFolder(path) == false,
      let data = FileManager.default.contents(atPath: path)
    else {
      return .text(404, "Not found: \(path)")
    }
    let type = path.lowercased().hasSuffix(".png") ? "image/png" : "application/octet-stream"
    return ServedResponse(status: 200, contentType: type, body: data)
  }

  // MARK: - Deciding

  struct Decisions: Decodable {
    var decision: String
    var ids: [String]
  }

  struct Outcome: Encodable {
    var id: String
    var resolved: Bool
    var message: String
  }

  struct Resolution: Encodable {
    var outcomes: [Outcome]
    var stamp: String
    var pending: Int
  }

  /// Carries out `{"decision": "accept" | "reject", "ids": [...]}`; an id is a record's path, so
  /// only records the tool itself lists can be named.
  private func resolve(_ body: Data) -> ServedResponse {
    guard let request = try? JSONDecoder().decode(Decisions.self, from: body),
      let decision = Decision(rawValue: request.decision), request.ids.count <= 10_000
    else {
      return .text(400, #"Expected {"decision": "accept" or "reject", "ids": [...]}."#)
    }
    // One decision at a time: two tabs must not rewrite one test file at once.
    return decisionLock.withLock {
      let (failures, _) = pending()
      let chosen = failures.filter { request.ids.contains($0.recordURL.path) }
      let console = CollectingConsole(forwardingTo: session.console)
      var deciding = session
      deciding.console = console
      _ = deciding.resolve(decision, failures: chosen)
      var outcomes: [Outcome] = []
      for id in request.ids {
        guard let failure = chosen.first(where: { $0.recordURL.path == id }) else {
          outcomes.append(Outcome(id: id, resolved: false, message: "No longer pending."))
          continue
        }
        let resolved = !FileManager.default.fileExists(atPath: id)
        let name = session.hints.name(of: failure)
        let message =
          resolved
          ? "\(decision == .accept ? "Accepted" : "Rejected") \(name)"
          : console.errors(mentioning: failure.record.testName)
        outcomes.append(Outcome(id: id, resolved: resolved, message: message))
      }
      let roots = session.artifactsRoots
      return .json(
        200,
        Resolution(
          outcomes: outcomes,
          stamp: ArtifactsStamp.of(roots),
          pending: pending().failures.count
        )
      )
    }
  }
}

/// Compares without stopping at the first difference, so the time taken tells nothing.
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
  let (x, y) = (Array(a.utf8), Array(b.utf8))
  guard x.count == y.count else { return false }
  return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}

/// Keeps what a decision printed, for the page, and prints it as the commands would.
final class CollectingConsole: ReviewConsole, @unchecked Sendable {
  private let forward: any ReviewConsole
  private var warnings: [String] = []

  init(forwardingTo console: any ReviewConsole) { forward = console }

  func write(_ text: String) { forward.write(text) }
  func warn(_ text: String) {
    warnings.append(text)
    forward.warn(text)
  }
  func ask(_ question: String) -> String? { nil }

  /// The errors that name `test`, or all of them when none does.
  func errors(mentioning test: String) -> String {
    let named = warnings.filter { $0.contains("\"\(test)\"") }
    return (named.isEmpty ? warnings : named).joined().trimmingCharacters(
      in: .whitespacesAndNewlines
    )
  }
}
