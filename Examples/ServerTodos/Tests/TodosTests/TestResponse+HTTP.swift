import Foundation
import HTTPSnapshotTesting
import HummingbirdTesting

// Hummingbird's `TestResponse` holds swift-http-types' `HTTPResponse` and SwiftNIO's `ByteBuffer`:
// pull `.http` back onto it once, in the test target, and every test snapshots responses as they
// come (the HTTP article shows these lines; this is where they are compiled).
extension Snapshotting where Value == TestResponse, Format == String {
  static var http: Snapshotting {
    Snapshotting<HTTPMessage, String>.http.pullback { response in
      HTTPMessage(response.head, body: Data(response.body.readableBytesView))
    }
  }
}
