import Foundation

/// Empties a browser context for a later page, by construction and verified by the browser:
/// every target in it but the page that will serve next is closed, until the browser lists none;
/// then every origin those targets held, and the blank document's `file:` origin, has all its
/// data cleared by the browser (cookies, local storage, IndexedDB, Cache Storage, service
/// workers, Storage Buckets, everything `Storage.clearDataForOrigin` calls `all`), and the
/// browser must report none left. A page still running after its snapshot (a promise
/// continuation, a popup) is closed before the clearing, so it has no later page to write into.
/// Anything that cannot be shown closed or cleared throws: the caller disposes the context.
enum ContextReset {
  /// How long closed targets have to go from the browser's list, in seconds.
  static let closingDeadline = 1.0

  /// Empties `context`, keeping only `page`, which is in it and has its blank document loaded.
  ///
  /// Three steps, each waiting for the browser once where it can: the targets are closed and
  /// listed until none is left (a target gone from the list can no longer write); then the
  /// cookies and every origin's data are cleared by commands sent together; then the checks
  /// that nothing is left are sent together too. No step starts before the one before it has
  /// been answered, so nothing is cleared while a target that could write is still listed, and
  /// nothing is checked before the browser has said it cleared it.
  static func reset(
    _ context: String,
    keeping page: PageSession
  ) async throws(WebSnapshotError) {
    let connection = page.connection
    var origins: Set<String> = ["file://"]
    let started = DispatchTime.now()
    // The finished page is closed at once as a rule, but not listed as gone at once: list
    // again after 2 ms, then twice as long each time, up to 25 ms.
    var pause: UInt64 = 2_000_000
    while true {
      let others = try await targets(in: context, on: connection).filter {
        $0.string("targetId") != page.targetIdentifier
      }
      if others.isEmpty { break }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
      guard elapsed < closingDeadline else {
        throw .protocolError(
          method: "Target.closeTarget",
          message: "\(others.count) targets of the browser context did not close"
        )
      }
      for target in others {
        if let origin = target.string("url").flatMap(origin(of:)) { origins.insert(origin) }
        if let identifier = target.string("targetId") {
          connection.post("Target.closeTarget", ["targetId": identifier])
        }
      }
      try? await Task.sleep(nanoseconds: pause)
      pause = min(2 * pause, 25_000_000)
    }
    let sorted = origins.sorted()
    let session = page.sessionIdentifier
    // The Storage domain acts on the storage of the page's own browser context.
    try page.throwIfFailed()
    _ = try await connection.sendTogether(
      [("Storage.clearCookies", ["browserContextId": context], nil)]
        + sorted.map {
          ("Storage.clearDataForOrigin", ["origin": $0, "storageTypes": "all"], session)
        }
    )
    // Verified: no cookie, no storage the quota counts (buckets included), no local storage.
    try page.throwIfFailed()
    let checks = try await connection.sendTogether(
      [
        ("Storage.getCookies", ["browserContextId": context], nil),
        (
          "DOMStorage.getDOMStorageItems",
          ["storageId": ["storageKey": "file:///", "isLocalStorage": true]], session
        ),
      ] + sorted.map { ("Storage.getUsageAndQuota", ["origin": $0], session) }
    )
    guard (checks[0].object["cookies"] as? [Any])?.isEmpty == true else {
      throw .protocolError(method: "Storage.clearCookies", message: "cookies are left")
    }
    guard (checks[1].object["entries"] as? [Any])?.isEmpty == true else {
      throw .protocolError(method: "Storage.clearDataForOrigin", message: "local storage is left")
    }
    for (origin, usage) in zip(sorted, checks.dropFirst(2)) where usage.int("usage") != 0 {
      throw .protocolError(method: "Storage.clearDataForOrigin", message: "\(origin) holds data")
    }
  }

  /// Every target of `context` the browser lists (pages, popups, workers, service workers,
  /// frames of their own), but tabs, which hold a page and go with it.
  static func targets(
    in context: String,
    on connection: DevToolsConnection
  ) async throws(WebSnapshotError) -> [JSONMessage] {
    let reply = try await connection.send(
      "Target.getTargets",
      ["filter": [["type": "tab", "exclude": true], [String: Any]()]]
    )
    return reply.messages("targetInfos").filter { $0.string("browserContextId") == context }
  }

  /// The origin of `url` for the Storage domain, if it has one that can hold data.
  private static func origin(of url: String) -> String? {
    guard let components = URLComponents(string: url), let scheme = components.scheme else {
      return nil
    }
    switch scheme {
    case "file": return "file://"
    case "http", "https":
      guard let host = components.host else { return nil }
      let port = components.port.map { ":\($0)" } ?? ""
      return "\(scheme)://\(host)\(port)"
    default: return nil
    }
  }
}
