import Foundation
import HTTPTypes

/// An HTTP request or response with its body, as one value to snapshot.
///
/// swift-http-types keeps the body apart from the head (`HTTPRequest` and `HTTPResponse` hold the
/// method or status and the header fields only); wrap the two to snapshot them together:
///
/// ```swift
/// assertSnapshot(of: HTTPMessage(response, body: data), as: .http)
/// ```
public struct HTTPMessage: Sendable, Hashable {
  /// The start of the message: a request or a response.
  public enum Head: Sendable, Hashable {
    /// A request: its method, scheme, authority, path and header fields.
    case request(HTTPRequest)
    /// A response: its status and header fields.
    case response(HTTPResponse)
  }

  /// The request or response.
  public var head: Head

  /// The body's bytes, or `nil` for a message without one.
  public var body: Data?

  /// A request with an optional body.
  ///
  /// - Parameters:
  ///   - request: The request's method, target and header fields.
  ///   - body: The body, rendered by the request's `Content-Type` field.
  public init(_ request: HTTPRequest, body: Data? = nil) {
    self.head = .request(request)
    self.body = body
  }

  /// A response with an optional body.
  ///
  /// - Parameters:
  ///   - response: The response's status and header fields.
  ///   - body: The body, rendered by the response's `Content-Type` field.
  public init(_ response: HTTPResponse, body: Data? = nil) {
    self.head = .response(response)
    self.body = body
  }

  /// The header fields of the request or response.
  public var headerFields: HTTPFields {
    switch head {
    case .request(let request): request.headerFields
    case .response(let response): response.headerFields
    }
  }
}
