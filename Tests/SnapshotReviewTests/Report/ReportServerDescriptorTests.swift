import ChildProcesses
import Foundation
import Synchronization
import Testing

@testable import SnapshotReview

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The served report's connections are close-on-exec from the moment they exist (`accept4` with
/// `SOCK_CLOEXEC`): a program another thread of the process starts between `accept` and a later
/// `fcntl` would otherwise inherit the connection, and hold it open after the server closed it.
@Suite struct ReportServerDescriptorTests {
  /// What the seam saw: the child it started and the connection's `socket:[inode]`.
  final class Spawned: Sendable {
    let value = Mutex<(pid: pid_t, socket: String)?>(nil)
  }

  #if os(Linux)
    @Test func aChildStartedRightAfterAcceptInheritsNoConnection() throws {
      try ReviewFixture.with { fixture in
        let (session, _) = fixture.session()
        let report = ServedReport(session: session, filters: [], token: "secret-token")
        let spawned = Spawned()
        // The worst moment: the connection has just been accepted, nothing else done with it.
        let server = try ReportServer(report: report, port: 0) { client in
          let socket =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(client)"))
            ?? "unreadable descriptor \(client)"
          guard
            case .success(let pid) = ChildSpawn.spawn(
              path: "/bin/sleep", arguments: ["30"], environment: [:], descriptors: [])
          else { return }
          spawned.value.withLock { $0 = (pid, socket) }
        }
        server.start()
        defer { server.stop() }

        let response = try RawClient.exchange(
          port: server.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")

        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(response.prefix(200))")
        let (pid, socket) = try #require(spawned.value.withLock { $0 })
        defer {
          kill(pid, SIGKILL)
          _ = ChildSpawn.reap(pid)
        }
        #expect(socket.hasPrefix("socket:["), "\(socket)")
        // The child has run its program (spawn returns once the exec happened), so what it holds
        // now is what it inherited.
        let folder = "/proc/\(pid)/fd"
        let held = try FileManager.default.contentsOfDirectory(atPath: folder).map {
          (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) ?? ""
        }
        #expect(!held.isEmpty, "the child's descriptors could not be read")
        #expect(!held.contains(socket), "the child inherited the connection: \(held)")
      }
    }
  #endif
}
