import Hummingbird
import Logging
import Tracing

/// One to-do item, as the API returns it.
public struct Todo: ResponseEncodable, Sendable {
  public var id: Int
  public var title: String
  public var completed: Bool

  public init(id: Int, title: String, completed: Bool) {
    self.id = id
    self.title = title
    self.completed = completed
  }
}

/// Where the application reads to-dos from; the tests give it a fixed list.
public protocol TodoStore: Sendable {
  func todo(id: Int) async throws -> Todo?
}

/// A fixed list of to-dos.
public struct FixedTodos: TodoStore {
  public var todos: [Todo]

  public init(_ todos: [Todo]) { self.todos = todos }

  public func todo(id: Int) async throws -> Todo? {
    // A child span, as a database client would make.
    try await withSpan("SELECT todos", ofKind: .client) { span in
      span.attributes["db.system"] = "memory"
      let found = todos.first { $0.id == id }
      span.attributes["db.rows"] = found == nil ? 0 : 1
      return found
    }
  }
}

/// The routes: `GET /todos/:id`, traced by Hummingbird's `TracingMiddleware` and logged through
/// the request's logger.
public func buildRouter(store: some TodoStore) -> Router<BasicRequestContext> {
  let router = Router()
  router.add(middleware: TracingMiddleware())
  router.get("todos/:id") { _, context -> Todo in
    let id = try context.parameters.require("id", as: Int.self)
    context.logger.info("Loading todo", metadata: ["todo.id": "\(id)"])
    guard let todo = try await store.todo(id: id) else {
      context.logger.notice("No such todo", metadata: ["todo.id": "\(id)"])
      throw HTTPError(.notFound, message: "No todo \(id)")
    }
    return todo
  }
  return router
}

/// The application, listening on loopback at a port the system chooses.
public func buildApplication(
  store: some TodoStore,
  logger: Logger
) -> some ApplicationProtocol {
  Application(
    router: buildRouter(store: store),
    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
    logger: logger
  )
}
