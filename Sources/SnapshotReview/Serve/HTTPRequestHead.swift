import Foundation

/// A request's head (its request line and header fields) as RFC 9112 allows it, read by
/// ``HTTPRequestHead/parse(_:)``, which refuses what the RFC says a server must refuse and what a
/// loopback server guarding itself by `Host` and `Origin` must not guess about.
///
/// Refused with 400: a line ending in a bare LF or holding a bare CR, a line folded onto the one
/// before (obs-fold), whitespace between a field's name and its colon, a field line without a
/// colon, a control character in a value, a request line that is not exactly `method SP target
/// SP version`, an HTTP/1.1 request without `Host`, two `Host` (or `Origin`, or token) lines,
/// an invalid `Host`, `Content-Length` values that are not digits or differ, `Content-Length`
/// with `Transfer-Encoding`. Refused otherwise: more than ``fieldLimit`` fields (431), a transfer
/// coding, which this server does not read (501), an `Expect` other than `100-continue` (417), an
/// HTTP major version other than 1 (505).
struct HTTPRequestHead: Equatable, Sendable {
  var method: String
  /// The target as sent (`/file?path=%2Ftmp`).
  var target: String
  /// The target's path, percent-decoded (`/file`).
  var path: String
  /// The target's query, percent-decoded (`+` stays a plus); a name given twice keeps its last
  /// value.
  var query: [String: String]
  /// The minor version of HTTP/1 (`1` for HTTP/1.1).
  var minorVersion: Int
  /// The fields in order, names in lower case, values without their surrounding whitespace
  /// (bytes above 0x7F read as ISO-8859-1).
  var fields: [Field]
  /// The authority the request names: the absolute-form target's, else the `Host` field's.
  var host: String?
  /// The body's length (0 without `Content-Length`).
  var contentLength: Int
  /// Whether the client waits for `100 Continue` before it sends the body.
  var expectsContinue: Bool

  struct Field: Equatable, Sendable {
    var name: String
    var value: String
  }

  /// At most this many field lines.
  static let fieldLimit = 100

  /// Fields that name who asks or what it may change: a second line of one would let the server
  /// and the report read different values, so it is refused instead of merged.
  static let singletonFields: Set<String> = [
    "host", "origin", ServedReport.tokenHeader, "expect", "transfer-encoding",
  ]

  /// The fields as one dictionary (lower-case names); a name given twice (which
  /// ``singletonFields`` never is) has its values joined with `, `, as HTTP combines them.
  var headers: [String: String] {
    var headers: [String: String] = [:]
    for field in fields {
      headers[field.name] = headers[field.name].map { "\($0), \(field.value)" } ?? field.value
    }
    return headers
  }

  /// Why a head is refused: the status to answer and a sentence naming what was wrong.
  struct Refusal: Error, Equatable, Sendable {
    var status: Int
    var reason: String
  }

  // MARK: - Finding the head

  /// The offset just past the blank line that ends the head in `bytes`, or `nil` when it has not
  /// all arrived. Empty lines before the request line are skipped (RFC 9112 §2.2). A blank line
  /// ended by a bare LF ends the head too, so that ``parse(_:)`` refuses it at once instead of
  /// the client waiting for a CRLF that never comes.
  ///
  /// `searchedUpTo` is how many bytes an earlier call already searched: the search resumes a few
  /// bytes before it, so that a head arriving a byte at a time costs O(*n*) in all, not O(*n*²).
  ///
  /// - Complexity: O(*n*) in the bytes not yet searched.
  static func end(in bytes: [UInt8], searchedUpTo: Int = 0) -> Int? {
    let start = leadingEmptyLinesEnd(bytes[...])
    var index = max(start + 1, searchedUpTo - 3)
    while index < bytes.count {
      if bytes[index] == lf {
        if bytes[index - 1] == lf { return index + 1 }
        if bytes[index - 1] == cr, index - 2 >= start, bytes[index - 2] == lf { return index + 1 }
      }
      index += 1
    }
    return nil
  }

  /// Where the request line starts: after any CRLF pairs that precede it.
  private static func leadingEmptyLinesEnd(_ bytes: ArraySlice<UInt8>) -> Int {
    var index = bytes.startIndex
    while index + 1 < bytes.endIndex, bytes[index] == cr, bytes[index + 1] == lf { index += 2 }
    return index - bytes.startIndex
  }

  // MARK: - Parsing

  /// Parses a whole head, as ``end(in:)`` delimits it (its blank line included).
  static func parse(_ head: ArraySlice<UInt8>) throws(Refusal) -> HTTPRequestHead {
    let bytes = Array(head.dropFirst(leadingEmptyLinesEnd(head)))
    var lines = try Self.lines(bytes)
    // The last line is the empty one that ends the head.
    guard lines.count >= 2, lines.removeLast().isEmpty else {
      throw Refusal(status: 400, reason: "The request's head does not end with an empty line.")
    }
    var head = try requestLine(lines.removeFirst())
    guard lines.count <= fieldLimit else {
      throw Refusal(
        status: 431,
        reason: "The request has \(lines.count) header fields; this server reads at most "
          + "\(fieldLimit)."
      )
    }
    for line in lines {
      head.fields.append(try field(line))
    }
    try checkFields(&head)
    return head
  }

  /// The head's lines without their CRLF; refuses a bare LF or CR.
  private static func lines(_ bytes: [UInt8]) throws(Refusal) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (index, byte) in bytes.enumerated() {
      if byte == cr, index + 1 >= bytes.count || bytes[index + 1] != lf {
        throw Refusal(
          status: 400,
          reason: "Line \(lines.count + 1) of the request holds a bare CR; HTTP/1.1 allows CR "
            + "only before LF."
        )
      }
      guard byte == lf else { continue }
      guard index > start, bytes[index - 1] == cr else {
        throw Refusal(
          status: 400,
          reason: "Line \(lines.count + 1) of the request ends in a bare LF; HTTP/1.1 lines end "
            + "in CRLF."
        )
      }
      lines.append(bytes[start..<(index - 1)])
      start = index + 1
    }
    if start < bytes.count { lines.append(bytes[start...]) }
    return lines
  }

  /// `method SP request-target SP HTTP-version`, each part as RFC 9112 §3 spells it.
  private static func requestLine(_ line: ArraySlice<UInt8>) throws(Refusal) -> HTTPRequestHead {
    let parts = line.split(separator: sp, omittingEmptySubsequences: false)
    let text = String(decoding: line.prefix(200), as: UTF8.self)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter),
      !parts[1].isEmpty, parts[1].allSatisfy({ $0 > sp && $0 < 0x7F })
    else {
      throw Refusal(
        status: 400,
        reason:
          "The request line “\(text)” is not “METHOD TARGET HTTP/1.1” with single spaces."
      )
    }
    let version = Array(parts[2])
    guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), isDigit(version[5]),
      version[6] == UInt8(ascii: "."), isDigit(version[7])
    else {
      throw Refusal(
        status: 400,
        reason: "The request line “\(text)” does not end with an HTTP version (HTTP/1.1)."
      )
    }
    guard version[5] == UInt8(ascii: "1") else {
      throw Refusal(
        status: 505,
        reason: "HTTP/\(Character(UnicodeScalar(version[5]))) is not supported; this server "
          + "speaks HTTP/1.1."
      )
    }
    let method = String(decoding: parts[0], as: UTF8.self)
    let target = String(decoding: parts[1], as: UTF8.self)
    var (host, pathAndQuery) = (String?.none, target)
    if target.lowercased().hasPrefix("http://") {
      // The absolute form: its authority stands for `Host` (RFC 9112 §3.2.2).
      let rest = target.dropFirst("http://".count)
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      host = String(rest[..<authorityEnd])
      pathAndQuery = String(rest[authorityEnd...])
      if !pathAndQuery.hasPrefix("/") { pathAndQuery = "/" + pathAndQuery }
      guard let authority = host, isValidHost(authority) else {
        throw Refusal(status: 400, reason: "The target “\(target)” names no valid host.")
      }
    } else if target == "*" {
      guard method == "OPTIONS" else {
        throw Refusal(status: 400, reason: "The target “*” is for OPTIONS only.")
      }
    } else if !target.hasPrefix("/") {
      throw Refusal(
        status: 400,
        reason: "The target “\(target)” is neither a path (/…) nor an http:// address."
      )
    }
    let (path, query) = try pathAndQueryParts(pathAndQuery)
    return HTTPRequestHead(
      method: method,
      target: target,
      path: path,
      query: query,
      minorVersion: Int(version[7] - UInt8(ascii: "0")),
      fields: [],
      host: host,
      contentLength: 0,
      expectsContinue: false
    )
  }

  private static func pathAndQueryParts(
    _ target: String
  ) throws(Refusal) -> (path: String, query: [String: String]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    func decoded(_ text: Substring) throws(Refusal) -> String {
      guard let decoded = String(text).removingPercentEncoding else {
        throw Refusal(
          status: 400,
          reason: "The target “\(target)” holds a malformed percent-encoding (“\(text)”)."
        )
      }
      return decoded
    }
    let path = try decoded(parts[0])
    var query: [String: String] = [:]
    if parts.count == 2 {
      for item in parts[1].split(separator: "&") {
        let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query[try decoded(pair[0])] = pair.count == 2 ? try decoded(pair[1]) : ""
      }
    }
    return (path, query)
  }

  /// `field-name ":" OWS field-value OWS`; refuses obs-fold and whitespace before the colon.
  private static func field(_ line: ArraySlice<UInt8>) throws(Refusal) -> Field {
    let text = String(decoding: line.prefix(200), as: UTF8.self)
    if let first = line.first, first == sp || first == tab {
      throw Refusal(
        status: 400,
        reason: "The header line “\(text)” continues the line before it (obs-fold), which "
          + "HTTP/1.1 no longer allows."
      )
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      throw Refusal(status: 400, reason: "The header line “\(text)” has no colon.")
    }
    let name = line[..<colon]
    if let last = name.last, last == sp || last == tab {
      throw Refusal(
        status: 400,
        reason: "The header line “\(text)” has whitespace between its name and its colon."
      )
    }
    guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
      throw Refusal(status: 400, reason: "The header line “\(text)” has an invalid name.")
    }
    var value = line[(colon + 1)...]
    while let first = value.first, first == sp || first == tab { value = value.dropFirst() }
    while let last = value.last, last == sp || last == tab { value = value.dropLast() }
    guard value.allSatisfy({ $0 == tab || ($0 >= sp && $0 != 0x7F) }) else {
      throw Refusal(
        status: 400,
        reason: "The value of the header “\(String(decoding: name, as: UTF8.self))” holds a "
          + "control character."
      )
    }
    return Field(
      name: String(decoding: name, as: UTF8.self).lowercased(),
      value: String(String.UnicodeScalarView(value.map { UnicodeScalar($0) }))
    )
  }

  /// The rules that span fields: one `Host`, one of each singleton field, one body length.
  private static func checkFields(_ head: inout HTTPRequestHead) throws(Refusal) {
    var counts: [String: Int] = [:]
    for field in head.fields { counts[field.name, default: 0] += 1 }
    for name in singletonFields.sorted() where counts[name, default: 0] > 1 {
      throw Refusal(
        status: 400,
        reason: "The request has \(counts[name]!) “\(displayName(name))” header lines; it may "
          + "have one."
      )
    }
    let headers = head.headers
    if let host = headers["host"] {
      guard isValidHost(host) else {
        throw Refusal(status: 400, reason: "The Host header “\(host)” is not a valid host.")
      }
      if head.host == nil { head.host = host }
    } else if head.minorVersion >= 1 {
      throw Refusal(status: 400, reason: "An HTTP/1.1 request must have a Host header.")
    }
    let lengths = head.fields.filter { $0.name == "content-length" }
      .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false) }
      .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
    if headers["transfer-encoding"] != nil {
      guard lengths.isEmpty else {
        throw Refusal(
          status: 400,
          reason: "The request has both Content-Length and Transfer-Encoding; it may have one."
        )
      }
      throw Refusal(
        status: 501,
        reason: "Transfer-Encoding is not supported here; send the body with Content-Length."
      )
    }
    let values = try lengths.map { (length: String) throws(Refusal) -> Int in
      guard !length.isEmpty, length.count <= 18, length.utf8.allSatisfy(isDigit),
        let value = Int(length)
      else {
        throw Refusal(
          status: 400,
          reason: "The Content-Length “\(length)” is not a number of bytes."
        )
      }
      return value
    }
    if let first = values.first {
      guard values.allSatisfy({ $0 == first }) else {
        throw Refusal(
          status: 400,
          reason: "The request has differing Content-Length values ("
            + lengths.joined(separator: ", ") + ")."
        )
      }
      head.contentLength = first
    }
    if let expect = headers["expect"] {
      guard expect.lowercased() == "100-continue" else {
        throw Refusal(
          status: 417,
          reason: "The expectation “\(expect)” is not supported; only 100-continue is."
        )
      }
      // An HTTP/1.0 client never waits for it (RFC 9110 §10.1.1: ignored in 1.0 requests).
      head.expectsContinue = head.minorVersion >= 1
    }
  }

  private static func displayName(_ name: String) -> String {
    name == ServedReport.tokenHeader
      ? "X-Snapshot-Testing-Token"
      : name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
        .joined(separator: "-")
  }

  // MARK: - Characters

  private static let (cr, lf, sp, tab) = (
    UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(32), UInt8(9)
  )

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// `tchar` of RFC 9110 §5.6.2.
  private static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// What a host may hold: `unreserved`, `sub-delims`, `%` of `pct-encoded`, `:` and the
  /// brackets of an IP literal (RFC 3986 §3.2.2).
  private static let hostCharacters = Set(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=%:[]".utf8
  )

  /// `uri-host [":" port]`: a name, an address or a bracketed IPv6 literal, and digits after the
  /// last colon outside brackets. Empty is valid (RFC 9112 §3.2), and refused later as foreign.
  static func isValidHost(_ host: String) -> Bool {
    guard host.utf8.allSatisfy(hostCharacters.contains) else { return false }
    var name = Substring(host)
    if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
      guard host[host.index(after: colon)...].utf8.allSatisfy(isDigit) else { return false }
      name = host[..<colon]
    }
    if name.hasPrefix("[") {
      return name.hasSuffix("]")
        && name.dropFirst().dropLast().allSatisfy { $0 != "[" && $0 != "]" }
    }
    return !name.contains("[") && !name.contains("]") && !name.contains(":")
  }
}
