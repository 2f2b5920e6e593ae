import Foundation
import HTTPTypes

/// The text of an ``HTTPMessage``: its start line, its header fields, then its body.
enum HTTPText {
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
      text += "\n\n" + BodyText.render(body, contentType: contentType)
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
    let code = String(format: "%03d", status.code)
    return status.reasonPhrase.isEmpty
      ? "HTTP/1.1 \(code)" : "HTTP/1.1 \(code) \(status.reasonPhrase)"
  }
}

/// A `Content-Type` value reduced to what picks a rendering: `type/subtype`, lowercased, without
/// parameters (`text/html; charset=utf-8` is `text/html`).
struct MediaType: Equatable {
  var essence: String

  init(_ fieldValue: String) {
    let beforeParameters = fieldValue.split(separator: ";", maxSplits: 1).first ?? ""
    essence = beforeParameters.trimmingCharacters(in: .whitespaces).lowercased()
  }

  var isJSON: Bool { essence == "application/json" || essence.hasSuffix("+json") }
  var isFormURLEncoded: Bool { essence == "application/x-www-form-urlencoded" }
  var isText: Bool {
    essence.hasPrefix("text/") || essence == "application/xml" || essence.hasSuffix("+xml")
  }
}
