import Vapor

/// One to-do item, as the API returns it.
public struct Todo: Content {
  public var id: Int
  public var title: String
  public var completed: Bool

  public init(id: Int, title: String, completed: Bool) {
    self.id = id
    self.title = title
    self.completed = completed
  }
}

/// The routes: `GET /todos/:id` from a fixed list, 404 for an unknown one.
public func routes(_ app: Application, todos: [Todo]) {
  app.get("todos", ":id") { request async throws -> Todo in
    guard let id = request.parameters.get("id", as: Int.self),
      let todo = todos.first(where: { $0.id == id })
    else {
      throw Abort(.notFound, reason: "No such todo")
    }
    return todo
  }
}
