import HTTPSnapshotTesting
import Testing
import VaporTesting
import VaporTodos

@Suite struct VaporTodosTests {
  static let todos = [
    Todo(id: 1, title: "Write the HTTP article", completed: true),
    Todo(id: 2, title: "Review it", completed: false),
  ]

  /// VaporTesting's in-memory client: the response as `.http` prints it.
  @Test func showsATodo() async throws {
    try await withApp(configure: { routes($0, todos: Self.todos) }) { app in
      try await app.testing().test(.GET, "todos/1") { response async in
        assertSnapshot(of: response, as: .http)
      }
    }
  }

  /// An unknown to-do: Vapor's error body, status and headers.
  @Test func answers404ForAnUnknownTodo() async throws {
    try await withApp(configure: { routes($0, todos: Self.todos) }) { app in
      try await app.testing().test(.GET, "todos/9") { response async in
        #expect(response.status == .notFound)
        assertSnapshot(of: response, as: .http)
      }
    }
  }
}
