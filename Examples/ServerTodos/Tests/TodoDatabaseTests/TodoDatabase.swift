import Foundation
import Testing

/// Where the examples' PostgreSQL listens: SERVER_TODOS_POSTGRES (`127.0.0.1:PORT`), which
/// `.ci/run` sets after `scripts/postgres-cluster.sh start`. Without it the PostgreSQL examples
/// are skipped, unless CI is set, where they fail.
enum ExamplePostgres {
  static let server = ProcessInfo.processInfo.environment["SERVER_TODOS_POSTGRES"]

  static var host: String { String(server?.split(separator: ":").first ?? "127.0.0.1") }
  static var port: Int { Int(server?.split(separator: ":").last ?? "") ?? 5432 }

  static var isAvailable: Bool {
    if server != nil { return true }
    if ProcessInfo.processInfo.environment["CI"] != nil {
      Issue.record("SERVER_TODOS_POSTGRES is not set: start scripts/postgres-cluster.sh first.")
    }
    return false
  }

  /// A fresh database's name.
  static func databaseName() -> String {
    "todos_" + UUID().uuidString.prefix(8).lowercased()
  }
}

/// A fresh SQLite file's path, removed by the caller.
func temporarySQLitePath() -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("todos-\(UUID().uuidString).sqlite").path
}

/// The todo app's migration, as plain SQL for the driver examples.
let todosSchema = [
  "CREATE TABLE todos (id integer PRIMARY KEY, title text NOT NULL, done boolean NOT NULL DEFAULT false)",
  "CREATE INDEX todos_title_idx ON todos (title)",
  "INSERT INTO todos (id, title, done) VALUES (1, 'Buy milk', false), (2, 'Walk the dog', true)",
]
