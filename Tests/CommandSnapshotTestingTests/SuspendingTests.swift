import Foundation
import SnapshotTesting
import TestSupport
import Testing

@testable import CommandSnapshotTesting

/// `assertSnapshotAsync` suspends while a command runs, and the command runs on a thread of the
/// runner's own: slow commands share no thread of Swift's cooperative pool, so neither parallel
/// tests nor work the test itself started wait for them.
@Suite struct SuspendingTests {
  /// Three slow commands meet: each waits until all three have started, then sleeps 3 seconds.
  /// On 2 cores the cooperative pool has 2 threads; had each assertion held one, the third could
  /// never start and the first two would wait for it until their timeout. No wall-clock bound:
  /// other suites running in parallel may delay the test, never make it pass wrongly.
  @Test func threeSlowCommandsRunSideBySide() async throws {
    try await withFolder { folder in
      let started = Date()
      await withTaskGroup(of: Void.self) { group in
        for index in 1...3 {
          group.addTask {
            let sleeper = Command(
              executable: shell,
              arguments: [
                "-c",
                """
                touch started-\(index)
                while [ "$(ls | grep -c started)" -lt 3 ]; do sleep 0.02; done
                sleep 3; echo all three ran together
                """,
              ],
              workingDirectory: folder,
              timeout: 120
            )
            await assertSnapshotAsync(of: sleeper, as: .output, named: "sleeper-\(index)")
          }
        }
      }
      // Side by side, the three took one sleep, not three.
      #expect(Date().timeIntervalSince(started) >= 3)
    }
  }

  /// Eight commands wait for a file that a `Task` of the test writes once they all started. Had
  /// each held a pool thread, the writer would find none free and they would run to their
  /// timeout and fail: this is a deadlock test, not a speed test.
  @Test func commandsWaitingForTheTestsOwnTaskFinishWhenItAnswers() async throws {
    try await withFolder { folder in
      let answer = folder.appendingPathComponent("answer")
      await withTaskGroup(of: Void.self) { group in
        for index in 1...8 {
          group.addTask {
            let waiter = Command(
              executable: shell,
              arguments: ["-c", "while [ ! -e answer ]; do sleep 0.02; done; echo answered"],
              workingDirectory: folder,
              timeout: 120
            )
            await assertSnapshotAsync(of: waiter, as: .output, named: "waiter-\(index)")
          }
        }
        group.addTask {
          try? await Task.sleep(nanoseconds: 300_000_000)
          _ = FileManager.default.createFile(atPath: answer.path, contents: Data("yes".utf8))
        }
      }
    }
  }

  private func withFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("suspending-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
  }

  /// The runner reports from its own thread; the assertion still fails with the reason.
  @Test func aCommandThatCannotRunFailsTheAsyncAssertion() async {
    await withKnownIssue {
      await assertSnapshotAsync(
        of: Command(executable: URL(fileURLWithPath: "/no/such/tool")),
        as: .output,
        named: "missing"
      )
    } matching: { issue in
      issue.description.contains(#"No program at "/no/such/tool"."#)
    }
  }

  /// A command's own timeout, not the assertion's 5-second default, bounds the wait: a command
  /// may take longer than the assertion's `timeout:`.
  @Test func theCommandsTimeoutBoundsTheWait() {
    withTemporaryFolder { folder in
      let slow = Command(executable: shell, arguments: ["-c", "sleep 1.5; echo done"], timeout: 10)
      let message = verifySnapshot(
        of: slow,
        as: .output,
        record: .all,
        snapshotDirectory: folder.path,
        timeout: 0.5,
        testName: "slow"
      )
      #expect(message?.contains("Exceeded timeout") == false)
      #expect(files(under: folder) == ["slow.1.txt"])
    }
  }
}
