import Foundation
import SnapshotTesting

/// Runs a strategy's statements on the connection from the assertion, and turns what cannot be
/// snapshotted (a statement the database refused, a dialect it cannot tell) into the reason the
/// assertion fails.
enum DatabaseRun {
  /// Why a strategy could not make its text; the message is the assertion's failure.
  struct Failure: Error {
    var message: String
  }

  /// The text `render` makes with the connection, produced on a task of its own: the assertion
  /// waits for it (a synchronous one blocks, an `async` one suspends), at most its `timeout:`.
  /// The task runs off Swift's cooperative pool (`QueueExecutor`), which synchronous assertions
  /// in parallel tests can hold entirely, and where a driver's blocking call would hold a thread.
  static func text(
    of connection: SQLConnection,
    render: @escaping @Sendable (Session) async throws -> String
  ) -> Async<String> {
    Async { callback in
      // Taken on the assertion's task: what the run reports reaches the assertion, and the wait
      // names the server if time runs out.
      let reports = StrategyReportScope.current
      let wait = SnapshotWait.current
      let deliver = Delivery(callback)
      Task(executorPreference: QueueExecutor.strategies) {
        let session = Session(connection: connection, wait: wait)
        let text: String
        do {
          text = try await render(session)
        } catch let failure as Failure {
          text = reports.bind { UnavailableSnapshot.report(failure.message) }
        } catch {
          text = reports.bind { UnavailableSnapshot.report(String(describing: error)) }
        }
        deliver.callback(text)
      }
    }
  }

  /// The connection as a strategy uses it: each statement noted in the assertion's wait, and the
  /// database's error turned into a failure that names the statement and the server.
  struct Session: Sendable {
    let connection: SQLConnection
    let wait: SnapshotWait?

    /// The database, as failures name it: `PostgreSQL at 127.0.0.1:5432`.
    func databaseName(_ dialect: SQLDialect?) -> String {
      let kind = (dialect ?? connection.dialect)?.rawValue ?? "the database"
      return connection.server.map { "\(kind) at \($0)" } ?? kind
    }

    /// Runs `sql`, or throws a ``Failure`` with the database's own error text.
    func run(_ sql: String, dialect: SQLDialect? = nil) async throws -> SQLResult {
      wait?.waiting(for: "\(databaseName(dialect)) to answer `\(oneLine(sql))`")
      do {
        return try await connection.run(sql)
      } catch {
        throw Failure(
          message: """
            \(DatabaseRun.capitalized(databaseName(dialect))) refused `\(oneLine(sql))`:
            \(errorText(error))
            """
        )
      }
    }

    /// The connection's dialect, as named or detected. Detection runs `SELECT version()`, then,
    /// if that fails, `SELECT sqlite_version()`; neither reads or writes anything of the user's.
    func dialect() async throws -> SQLDialect {
      if let named = connection.dialect { return named }
      wait?.waiting(for: "\(databaseName(nil)) to answer `SELECT version()`")
      if let result = try? await connection.run("SELECT version()"),
        case .text(let version)? = result.rows.first?.first,
        version.hasPrefix("PostgreSQL")
      {
        return .postgreSQL
      }
      wait?.waiting(for: "\(databaseName(nil)) to answer `SELECT sqlite_version()`")
      if (try? await connection.run("SELECT sqlite_version()")) != nil { return .sqlite }
      throw Failure(
        message: """
          Could not tell the dialect of \(databaseName(nil)): it answered neither \
          `SELECT version()` as PostgreSQL does nor `SELECT sqlite_version()`. Name it: \
          `SQLConnection(dialect: .postgreSQL, …)` or `.sqlite`.
          """
      )
    }
  }

  /// `text` with its first letter upper-cased, to open a sentence.
  fileprivate static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  /// A statement in one line, at most 200 characters, for a failure or a wait's step.
  static func oneLine(_ sql: String) -> String {
    let words = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return words.count > 200 ? String(words.prefix(199)) + "…" : words
  }

  /// The driver's error as a user reads it: its description, which for the drivers the
  /// examples use holds the database's message.
  private static func errorText(_ error: any Error) -> String {
    let text = String(describing: error)
    if let localized = (error as? LocalizedError)?.errorDescription, !text.contains(localized) {
      return localized + "\n" + text
    }
    return text
  }

  /// The engine's callback, called once from the run's task.
  private struct Delivery: @unchecked Sendable {
    let callback: (String) -> Void
    init(_ callback: @escaping (String) -> Void) { self.callback = callback }
  }
}
