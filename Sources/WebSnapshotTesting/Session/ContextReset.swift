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
  /// How many times the browser's list of targets is read while closed targets go away.
  static let closingRounds = 40

  /// Empties `context`, keeping only `page`, which is in it and has its blank document loaded.
  static func reset(
    _ context: String,
    keeping page: PageSession
  ) async throws(WebSnapshotError) {
    let connection = page.connection
    var origins: Set<String> = ["file://"]
    var round = 0
    while true {
      let others = try await targets(in: context, on: connection).filter {
        $0.string("targetId") != page.targetIdentifier
      }
      if others.isEmpty { break }
      round += 1
      guard round < closingRounds else {
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
      try? await Task.sleep(nanoseconds: 25_000_000)
    }
    _ = try await connection.send("Storage.clearCookies", ["browserContextId": context])
    // The Storage domain acts on the storage of the page's own browser context.
    for origin in origins.sorted() {
      try await page.send("Storage.clearDataForOrigin", ["origin": origin, "storageTypes": "all"])
    }
    // Verified: no cookie, no storage the quota counts (buckets included), no local storage.
    let cookies = try await connection.send("Storage.getCookies", ["browserContextId": context])
    guard (cookies.object["cookies"] as? [Any])?.isEmpty == true else {
      throw .protocolError(method: "Storage.clearCookies", message: "cookies are left")
    }
    for origin in origins.sorted() {
      let usage = try await page.send("Storage.getUsageAndQuota", ["origin": origin])
      guard usage.int("usage") == 0 else {
        throw .protocolError(method: "Storage.clearDataForOrigin", message: "\(origin) holds data")
      }
    }
    let local = try await page.send(
      "DOMStorage.getDOMStorageItems",
      ["storageId": ["storageKey": "file:///", "isLocalStorage": true]]
    )
    guard (local.object["entries"] as? [Any])?.isEmpty == true else {
      throw .protocolError(method: "Storage.clearDataForOrigin", message: "local storage is left")
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
