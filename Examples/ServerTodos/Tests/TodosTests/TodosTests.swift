import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Todos
import TranscriptSnapshotTesting

let store = FixedTodos([
  Todo(id: 1, title: "Write the transcript article", completed: true),
  Todo(id: 2, title: "Review it", completed: false),
])

@Suite struct TodosTests {
  init() {
    // TracingMiddleware starts its spans through `InstrumentationSystem.tracer`: route them to
    // the capture of the test that made them. Once per process; later calls do nothing.
    Transcript.bootstrap()
  }

  /// Hummingbird's test client, in process: the response as `.http` prints it.
  @Test func showsATodo() async throws {
    let app = Application(router: buildRouter(store: store))
    try await app.test(.router) { client in
      try await client.execute(uri: "/todos/1", method: .get) { response in
        assertSnapshot(of: response, as: .http)
      }
    }
  }

  /// A real server on 127.0.0.1 at a port the system chose, and a real connection to it.
  @Test func answers404OverLoopback() async throws {
    let app = buildApplication(store: store, logger: Logger(label: "todos"))
    try await app.test(.live) { client in
      try await client.execute(uri: "/todos/9", method: .get) { response in
        #expect(response.status == .notFound)
        // The server adds the time of the answer; leave it out of the reference.
        var head = response.head
        head.headerFields[.date] = nil
        assertSnapshot(
          of: HTTPMessage(head, body: Data(response.body.readableBytesView)), as: .http)
      }
    }
  }

  /// What one request did: the request, the spans the middleware and the store made, the
  /// handler's log entries and the response, in the order they happened.
  @Test func transcriptOfAGet() async throws {
    let transcript = await transcript(ofGet: "/todos/2")
    assertSnapshot(of: transcript, as: .transcript)
  }

  /// A request that fails: the log entry at `notice` and the span's error are in the transcript.
  @Test func transcriptOfAMissingTodo() async throws {
    let transcript = await transcript(ofGet: "/todos/9")
    assertSnapshot(of: transcript, as: .transcript)
  }

  /// The transcript of a `GET` of `path`, through Hummingbird's test client in process, with the
  /// application logging through the capture.
  func transcript(ofGet path: String) async -> Transcript {
    await Transcript.record { capture in
      let app = Application(
        router: buildRouter(store: store), logger: capture.logger(label: "todos"))
      try await app.test(.router) { client in
        capture.record(HTTPRequest(method: .get, scheme: nil, authority: nil, path: path))
        try await client.execute(uri: path, method: .get) { response in
          capture.record(response.head, body: Data(response.body.readableBytesView))
        }
      }
    }
  }
}
