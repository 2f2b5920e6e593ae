import Foundation
import HTTPTypes

/// The text of an ``HTTPMessage``: its start line, its header fields, then its body.
enum HTTPText {
  /// The fields whose values `.http` replaces by default.
  static let defaultVolatileFields: Set<HTTPField.Name> = [.date, .age]

  static func render(_ message: HTTPMessage, replacingValuesOf volatileFields: Set<HTTPField.Name>)
    -> String
  {
    var lines: [String] = []
    switch message.head {
    case .request(let request):
      lines.append(requestLine(request))
      // HTTP/1.1 carries the authority in `Host` (swift-http-types keeps it out of the fields).
      if let authority = request.authority {
        lines.append("Host: \(authority)")
      }
    case .response(let response):
      lines.append(statusLine(response.status))
    }
    for field in message.headerFields {
      let value = volatileFields.contains(field.name) ? "<\(field.name.rawName)>" : field.value
      lines.append("\(field.name.rawName): \(value)")
    }
    var text = lines.joined(separator: "\n")
    if let body = message.body, !body.isEmpty {
      let contentType = message.headerFields[.contentType].map(MediaType.init)
      let encoding = message.headerFields[.contentEncoding]
      // The body is written after the head, not copied after it: a JSON body of many megabytes
      // becomes one string, allocated once at its final size.
      text = BodyText.render(
        body,
        contentType: contentType,
        contentEncoding: encoding,
        after: text + "\n\n"
      )
    }
    return text
  }

  /// `GET /invoices/42 HTTP/1.1`; a request without a path names its authority (`CONNECT`) or `*`.
  static func requestLine(_ request: HTTPRequest) -> String {
    let target = request.path ?? request.authority ?? "*"
    return "\(request.method.rawValue) \(target) HTTP/1.1"
  }

  /// `HTTP/1.1 404 Not Found`; a status without a reason phrase is its code alone.
  static func statusLine(_ status: HTTPResponse.Status) -> String {
    // Three digits, zero-padded: swift-http-types keeps a code within 0...999.
    let digits = String(status.code)
    let code = String(repeating: "0", count: max(3 - digits.count, 0)) + digits
    return status.reasonPhrase.isEmpty
      ? "HTTP/1.1 \(code)" : "HTTP/1.1 \(code) \(status.reasonPhrase)"
  }
}

/// A `Content-Type` value reduced to what picks a rendering: `type/subtype`, lowercased, and its
/// `charset` parameter (`text/html; charset=ISO-8859-1` is `text/html` in `iso-8859-1`).
struct MediaType: Equatable {
  var essence: String
  /// The `charset` parameter, lowercased and unquoted, or `nil`.
  var charset: String?

  init(_ fieldValue: String) {
    let parts = fieldValue.split(separator: ";", omittingEmptySubsequences: false)
    essence = (parts.first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    for parameter in parts.dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard pair.count == 2, pair[0].lowercased() == "charset" else { continue }
      charset = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
    }
  }

  /// The encoding `charset` names: UTF-8 when it names none (JSON and most APIs), `nil` for a
  /// charset this package does not read.
  var stringEncoding: String.Encoding? {
    switch charset {
    case nil, "utf-8", "utf8", "us-ascii", "ascii": .utf8
    case "iso-8859-1", "latin1", "iso_8859-1", "l1": .isoLatin1
    case "windows-1252", "cp1252": .windowsCP1252
    case "utf-16": .utf16
    case "utf-16le": .utf16LittleEndian
    case "utf-16be": .utf16BigEndian
    default: nil
    }
  }

  var isJSON: Bool { essence == "application/json" || essence.hasSuffix("+json") }
  var isFormURLEncoded: Bool { essence == "application/x-www-form-urlencoded" }
  var isText: Bool {
    essence.hasPrefix("text/") || essence == "application/xml" || essence.hasSuffix("+xml")
  }
}
