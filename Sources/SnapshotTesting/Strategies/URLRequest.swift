#if !os(WASI)
  import Foundation

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  extension Snapshotting where Value == URLRequest, Format == String {
    /// Snapshots a request as an HTTP message: the method and URL, the headers in sorted order,
    /// then a blank line and the body as text.
    ///
    /// ```swift
    /// assertSnapshot(of: request, as: .raw)
    /// ```
    ///
    /// records:
    ///
    /// ```
    /// POST https://www.pointfree.co/subscribe
    /// Accept: text/html
    ///
    /// pricing[billing]=monthly&pricing[lane]=individual
    /// ```
    ///
    /// Query items are sorted by name, so their order in the code does not matter.
    public static let raw = Snapshotting.raw(pretty: false)

    /// Snapshots a request as an HTTP message, optionally re-indenting a JSON body.
    ///
    /// - Parameter pretty: Whether a body that parses as a JSON object or array is written
    ///   pretty-printed with sorted keys. Any other body is written as it is. A body that is not
    ///   UTF-8 text fails the assertion, which records nothing.
    public static func raw(pretty: Bool) -> Snapshotting {
      SimplySnapshotting<String>.lines.pullback { (request: URLRequest) in
        let method = request.httpMethod ?? "GET"
        let url = request.url.map(\.sortingQueryItemsForSnapshot)?.absoluteString ?? "(null)"
        let headers = (request.allHTTPHeaderFields ?? [:])
          .map { name, value in "\(name): \(value)" }
          .sorted()
        var text = ([method + " " + url] + headers).joined(separator: "\n")
        if let body = request.httpBody {
          guard let bodyText = String(validatingUTF8Data: body) else {
            return UnavailableSnapshot.report(notTextMessage(request, body))
          }
          text += "\n\n" + ((pretty ? prettyJSON(body) : nil) ?? bodyText)
        }
        return text
      }
    }

    /// Snapshots a request as the `curl` command that sends it, one option a line.
    ///
    /// ```swift
    /// assertSnapshot(of: request, as: .curl)
    /// ```
    ///
    /// records:
    ///
    /// ```
    /// curl \
    /// 	--request POST \
    /// 	--header "Accept: text/html" \
    /// 	--data "pricing[billing]=monthly" \
    /// 	"https://www.pointfree.co/subscribe"
    /// ```
    ///
    /// `GET` needs no option and `HEAD` is `--head`; headers come in name order, the `Cookie`
    /// header as `--cookie`. Double quotes are escaped, nothing else is. A body that is not UTF-8
    /// text fails the assertion, which records nothing (upstream leaves such a body out).
    public static let curl = SimplySnapshotting<String>.lines.pullback { (request: URLRequest) in
      var options = ["curl"]
      switch request.httpMethod ?? "GET" {
      case "GET":
        break
      case "HEAD":
        options.append("--head")
      case let method:
        options.append("--request \(method)")
      }
      let headers = request.allHTTPHeaderFields ?? [:]
      for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name != "Cookie" {
        options.append("--header \(curlQuoted("\(name): \(value)"))")
      }
      if let body = request.httpBody {
        guard let text = String(validatingUTF8Data: body) else {
          return UnavailableSnapshot.report(notTextMessage(request, body))
        }
        options.append("--data \(curlQuoted(text))")
      }
      if let cookie = headers["Cookie"] {
        options.append("--cookie \(curlQuoted(cookie))")
      }
      if let url = request.url?.sortingQueryItemsForSnapshot {
        options.append(curlQuoted(url.absoluteString))
      }
      return options.joined(separator: " \\\n\t")
    }
  }

  /// The body re-serialised as pretty JSON with sorted keys, or `nil` when it is not a JSON
  /// object or array.
  private func prettyJSON(_ body: Data) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: body),
      let data = try? JSONSerialization.data(
        withJSONObject: object,
        options: [.prettyPrinted, .sortedKeys]
      )
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// A `.curl` argument as upstream's reference text spells it, byte for byte: in double quotes,
  /// with only `"` escaped. Not shell quoting (RunRecord's `shellQuoted` is the package's one):
  /// references recorded with upstream must keep passing.
  private func curlQuoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  extension URL {
    /// The same URL with its query items in name order (equal names keep their order), so that
    /// a snapshot does not depend on the order in which code added them.
    fileprivate var sortingQueryItemsForSnapshot: URL {
      guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false),
        let items = components.queryItems
      else { return self }
      components.queryItems = items.enumerated()
        .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
        .map(\.element)
      return components.url ?? self
    }
  }
#endif

/// Why a request whose body is binary has no text snapshot.
private func notTextMessage(_ request: URLRequest, _ body: Data) -> String {
  let method = request.httpMethod ?? "GET"
  let url = request.url?.absoluteString ?? "(null)"
  return """
    The body of the request \(method) \(url) is not UTF-8 text (\(body.count) bytes), so the \
    request has no text snapshot. Snapshot the body with a strategy for its format (.data, .png) \
    and the request without it.
    """
}
