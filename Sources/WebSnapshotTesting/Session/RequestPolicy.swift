import Foundation
import RunRecord

/// Which URLs a page may load: loopback servers, `file:`, `data:` and the browser's own
/// `about:` and `blob:` documents.
enum RequestPolicy {
  static func allows(_ address: String) -> Bool {
    guard let url = URL(string: address), let scheme = url.scheme?.lowercased() else {
      return false
    }
    switch scheme {
    case "file", "data", "about", "blob": return true
    case "http", "https", "ws", "wss": return isLoopback(url.host)
    default: return false
    }
  }

  /// Whether `host`, as a URL spells it, is this machine: `localhost` and its subdomains,
  /// `127.0.0.0/8`, `::1` and `127.0.0.0/8` mapped into IPv6 (`::ffff:127.0.0.1`). Decided by
  /// the name alone, never by looking it up: a name that resolves to 127.0.0.1 is not loopback.
  static func isLoopback(_ host: String?) -> Bool {
    guard var host = host?.lowercased(), !host.isEmpty else { return false }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.hasSuffix(".") { host.removeLast() }
    if host == "localhost" || host.hasSuffix(".localhost") { return true }
    if host.contains(":") {
      guard let bytes = SystemCalls.ipv6Address(host) else { return false }
      let isOne = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
      let isMapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
      return isOne || (isMapped && bytes[12] == 127)
    }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.first == "127" && parts.allSatisfy { UInt8($0) != nil }
  }
}
