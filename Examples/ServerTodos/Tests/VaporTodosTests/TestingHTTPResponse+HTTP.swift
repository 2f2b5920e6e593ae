import Foundation
import HTTPSnapshotTesting
import VaporTesting

// VaporTesting's `TestingHTTPResponse` holds Vapor's own `HTTPStatus` and `HTTPHeaders` and a
// SwiftNIO `ByteBuffer`: pull `.http` back onto it once, in the test target, and every test
// snapshots responses as they come (the HTTP article shows these lines; this is where they are
// compiled, and DocumentedReferenceTests checks the article still shows them).
extension Snapshotting where Value == TestingHTTPResponse, Format == String {
  static var http: Snapshotting {
    Snapshotting<HTTPMessage, String>.http.pullback { response in
      var fields = HTTPFields()
      for (name, value) in response.headers {
        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
      }
      let status = HTTPResponse.Status(
        code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
      return HTTPMessage(
        HTTPResponse(status: status, headerFields: fields),
        body: Data(response.body.readableBytesView))
    }
  }
}
