import ChildProcesses
import DatabaseSnapshotTesting
import Foundation
import Synchronization

/// A real PostgreSQL for the tests: Debian's server binaries run as an unprivileged cluster in a
/// temporary folder, on a free loopback port, with trust authentication for `postgres` on that
/// port only. Started once per test process, stopped when the process exits; a cluster a killed
/// test process left behind is stopped and removed by the next one.
///
/// The server refuses to run as root, so as root it runs as the system user `postgres` (which
/// Debian's `postgresql` package creates), or as `snapshot-testing-pg`, created here if neither
/// exists.
final class PostgreSQLServer: Sendable {
  static let binaries = "/usr/lib/postgresql/15/bin"
  private static let folderPrefix = "snapshot-testing-pg-"

  let port: Int
  let folder: String
  let user: String?

  /// The process's server, started on first use; throws why it cannot run.
  static func shared() async throws -> PostgreSQLServer {
    try await Starter.shared.server()
  }

  /// Starts the server once: every caller awaits the same start (an actor's state read before a
  /// suspension would let each caller start one of its own).
  private actor Starter {
    static let shared = Starter()
    private var start: Task<PostgreSQLServer, any Error>?

    func server() async throws -> PostgreSQLServer {
      if let start { return try await start.value }
      let task = Task { try await PostgreSQLServer.start() }
      start = task
      return try await task.value
    }
  }

  private init(port: Int, folder: String, user: String?) {
    self.port = port
    self.folder = folder
    self.user = user
  }

  /// Whether the server's binaries are installed (Debian's `postgresql-15`).
  static var isInstalled: Bool {
    FileManager.default.isExecutableFile(atPath: "\(binaries)/initdb")
      && FileManager.default.isExecutableFile(atPath: "/usr/bin/psql")
  }

  private static func start() async throws -> PostgreSQLServer {
    guard isInstalled else {
      throw ChildProgram.Failure(
        description:
          "PostgreSQL 15 is not installed (scripts/require-system-packages.sh --with-postgresql)."
      )
    }
    await removeLeftovers()
    let user = getuid() == 0 ? try await serverUser() : nil
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(folderPrefix)\(getpid())-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    if let user {
      try FileManager.default.setAttributes([.ownerAccountName: user], ofItemAtPath: folder)
    }
    try await runAsServer(
      user,
      "initdb",
      [
        "-D", "\(folder)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8",
        "--locale=C.UTF-8", "--no-sync",
      ]
    )
    var lastError: Error?
    for _ in 0..<8 {
      let port = Int.random(in: 20_000..<60_000)
      do {
        try await runAsServer(
          user,
          "pg_ctl",
          [
            "-D", "\(folder)/data", "-l", "\(folder)/server.log", "-w", "-t", "60", "-o",
            "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder) -c fsync=off "
              + "-c synchronous_commit=off -c full_page_writes=off",
            "start",
          ]
        )
        let server = PostgreSQLServer(port: port, folder: folder, user: user)
        StopAtExit.register(server)
        return server
      } catch {
        lastError = error  // most likely the port was taken: try another
      }
    }
    throw lastError ?? ChildProgram.Failure(description: "PostgreSQL did not start.")
  }

  /// The user the server runs as, when the tests run as root.
  private static func serverUser() async throws -> String {
    for name in ["postgres", "snapshot-testing-pg"] where getpwnam(name) != nil { return name }
    try await ChildProgram.succeed(
      "/usr/sbin/useradd",
      ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "snapshot-testing-pg"]
    )
    return "snapshot-testing-pg"
  }

  @discardableResult
  private static func runAsServer(_ user: String?, _ program: String, _ arguments: [String])
    async throws -> String
  {
    if let user {
      return try await ChildProgram.succeed(
        "/usr/sbin/runuser",
        ["-u", user, "--", "\(binaries)/\(program)"] + arguments
      )
    }
    return try await ChildProgram.succeed("\(binaries)/\(program)", arguments)
  }

  /// Stops and removes the clusters of test processes that no longer run.
  private static func removeLeftovers() async {
    let temporary = FileManager.default.temporaryDirectory.path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
    for name in names where name.hasPrefix(folderPrefix) {
      let pidText = name.dropFirst(folderPrefix.count).prefix(while: \.isNumber)
      guard let pid = Int32(pidText), kill(pid, 0) != 0, errno == ESRCH else { continue }
      let folder = "\(temporary)/\(name)"
      stopCluster(folder: folder)
      try? FileManager.default.removeItem(atPath: folder)
    }
  }

  /// `pg_ctl stop -m immediate`, as the cluster's owner, from any thread (also at exit).
  fileprivate static func stopCluster(folder: String) {
    var owner: String?
    if getuid() == 0,
      let attributes = try? FileManager.default.attributesOfItem(atPath: "\(folder)/data"),
      let name = attributes[.ownerAccountName] as? String, name != "root"
    {
      owner = name
    }
    let arguments = ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"]
    let program = "\(binaries)/pg_ctl"
    let request =
      owner.map { ["/usr/sbin/runuser", "-u", $0, "--", program] + arguments }
      ?? [program] + arguments
    _ = StopAtExit.runBlocking(request)
  }

  /// A new, empty database of its own, as a connection that runs each statement with `psql`.
  func makeDatabase() async throws -> SQLConnection {
    let name =
      "test_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
    _ = try await Psql(port: port, database: "postgres").run("CREATE DATABASE \(name)")
    return Psql(port: port, database: name).connection
  }
}

/// Stops the process's cluster when the process exits (an `atexit` handler captures nothing, so
/// the folder waits in a global).
private enum StopAtExit {
  private static let folder = Mutex<String?>(nil)

  static func register(_ server: PostgreSQLServer) {
    folder.withLock { $0 = server.folder }
    atexit {
      guard let folder = StopAtExit.folder.withLock({ $0 }) else { return }
      PostgreSQLServer.stopCluster(folder: folder)
      try? FileManager.default.removeItem(atPath: folder)
    }
  }

  /// Runs a program on this thread (at exit there is no pool to suspend on).
  static func runBlocking(_ command: [String]) -> Bool {
    guard let path = command.first else { return false }
    let request = ChildRequest(
      path: path,
      arguments: Array(command.dropFirst()),
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
      timeout: 30
    )
    guard case .success(let run) = ProcessGroupRunner.run(request) else { return false }
    return run.termination == .exited(0)
  }
}
