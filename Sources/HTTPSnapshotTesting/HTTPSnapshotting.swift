import Foundation
import HTTPTypes
import SnapshotTesting

extension Snapshotting where Value == HTTPMessage, Format == String {
  /// Snapshots a request or response with its body as HTTP/1.1 text, in a `.http` reference.
  ///
  /// ```swift
  /// assertSnapshot(of: HTTPMessage(response, body: data), as: .http)
  /// ```
  ///
  /// records the status line, the header fields in their order, a blank line and the body:
  ///
  /// ```
  /// HTTP/1.1 200 OK
  /// Content-Type: application/json
  /// Date: <Date>
  ///
  /// {
  ///   "id" : 42
  /// }
  /// ```
  ///
  /// The body is rendered by its `Content-Type`: JSON pretty-printed with sorted keys, exactly as
  /// `.json` prints the same value; form fields one decoded field a line; `text/*` and XML as
  /// UTF-8 text; anything else as one line with its type, byte count and SHA-256. The values of
  /// `Date` and `Age` are replaced by a placeholder; scrub anything else with `.scrubbing(...)`:
  ///
  /// ```swift
  /// assertSnapshot(of: HTTPMessage(response, body: data), as: .http.scrubbing(.uuids))
  /// ```
  ///
  /// - Complexity: O(*n*) in the size of the message, plus the JSON parse and print of a JSON
  ///   body.
  public static var http: Snapshotting {
    .http(replacingValuesOf: HTTPText.defaultVolatileFields)
  }

  /// Snapshots a request or response with its body as HTTP/1.1 text, replacing the values of the
  /// given header fields by a placeholder (`<Name>`), in a `.http` reference.
  ///
  /// ```swift
  /// assertSnapshot(
  ///   of: HTTPMessage(response, body: data),
  ///   as: .http(replacingValuesOf: [.date, .age, .eTag])
  /// )
  /// ```
  ///
  /// - Parameter volatileFields: The fields whose values change from run to run. Pass `[]` to
  ///   keep every value.
  public static func http(replacingValuesOf volatileFields: Set<HTTPField.Name>) -> Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (message: HTTPMessage) in
      HTTPText.render(message, replacingValuesOf: volatileFields)
    }
    strategy.pathExtension = "http"
    return strategy
  }
}

/// The text `.http` snapshots for `message`, for another module of this package that shows a
/// message as `.http` does (the transcript) without making the strategy for each one.
package func httpText(of message: HTTPMessage) -> String {
  HTTPText.render(message, replacingValuesOf: HTTPText.defaultVolatileFields)
}

extension Snapshotting where Value == HTTPResponse, Format == String {
  /// Snapshots a response's status line and header fields, in a `.http` reference.
  ///
  /// ```swift
  /// assertSnapshot(of: response, as: .http)
  /// ```
  ///
  /// The values of `Date` and `Age` are replaced by a placeholder. To include a body, snapshot an
  /// ``HTTPMessage``.
  public static var http: Snapshotting {
    Snapshotting<HTTPMessage, String>.http.pullback { HTTPMessage($0) }
  }

  /// Snapshots a response's head, replacing the values of the given header fields by a
  /// placeholder, as `http(replacingValuesOf:)` on an ``HTTPMessage`` does.
  public static func http(replacingValuesOf volatileFields: Set<HTTPField.Name>) -> Snapshotting {
    Snapshotting<HTTPMessage, String>.http(replacingValuesOf: volatileFields)
      .pullback { HTTPMessage($0) }
  }
}

extension Snapshotting where Value == HTTPRequest, Format == String {
  /// Snapshots a request's request line and header fields, in a `.http` reference.
  ///
  /// ```swift
  /// assertSnapshot(of: request, as: .http)
  /// ```
  ///
  /// The authority is written as a `Host` field, first, as HTTP/1.1 sends it. To include a body,
  /// snapshot an ``HTTPMessage``.
  public static var http: Snapshotting {
    Snapshotting<HTTPMessage, String>.http.pullback { HTTPMessage($0) }
  }

  /// Snapshots a request's head, replacing the values of the given header fields by a
  /// placeholder, as `http(replacingValuesOf:)` on an ``HTTPMessage`` does.
  public static func http(replacingValuesOf volatileFields: Set<HTTPField.Name>) -> Snapshotting {
    Snapshotting<HTTPMessage, String>.http(replacingValuesOf: volatileFields)
      .pullback { HTTPMessage($0) }
  }
}
