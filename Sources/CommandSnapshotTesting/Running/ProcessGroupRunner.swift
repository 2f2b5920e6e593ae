import CCommandSpawn
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a ``Command`` in a process group of its own and reads both of its outputs as they come.
///
/// The program is started by `command_spawn` (the package's one spawner, which the web module's
/// browser uses too; on Linux the kernel kills the program if the test process dies first) as the
/// leader of a new process group, so that one
/// `kill(-group, SIGKILL)` ends it and every child it started: on a timeout, and also once it has
/// exited, so that a child left behind can neither keep the pipes open nor outlive the test.
/// Standard input is a temporary file (or `/dev/null`): the program reads it at its own pace and
/// never blocks the reader. Both outputs are read in 64 KiB chunks with `poll`; each keeps at
/// most ``Command/outputLimit`` bytes and counts the rest. The same `poll` waits for the program's
/// exit through a pidfd (Linux 5.3 and later), so the reader sleeps until something happens;
/// where there is none it looks for the exit every 50 ms.
///
/// ``start(_:completion:)`` runs all this on a thread of its own, never on one of Swift's
/// cooperative pool, which a program that takes seconds would otherwise hold.
///
/// - Complexity: O(*n*) in the bytes written, with memory bounded by twice the output limit.
enum ProcessGroupRunner {
  /// Runs `command` on a new thread and hands its result to `completion`, on that thread.
  static func start(
    _ command: Command,
    completion: @escaping @Sendable (Result<CommandRun, CommandError>) -> Void
  ) {
    let thread = Thread { completion(run(command)) }
    thread.name = "SnapshotTesting: \(command.executable.lastPathComponent)"
    thread.start()
  }

  static func run(_ command: Command) -> Result<CommandRun, CommandError> {
    if let error = command.preflightError() { return .failure(error) }
    let path = command.executable.path

    var inputFile: URL?
    defer { if let inputFile { try? FileManager.default.removeItem(at: inputFile) } }
    var inputPath = "/dev/null"
    if let input = command.standardInput {
      let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("command-input-\(UUID().uuidString)")
      do {
        try input.write(to: file)
      } catch {
        return .failure(CommandError(path: path, cause: .spawnFailed(errno: EIO)))
      }
      inputFile = file
      inputPath = file.path
    }

    guard let outputPipe = makePipe() else {
      return .failure(CommandError(path: path, cause: .spawnFailed(errno: errno)))
    }
    guard let errorPipe = makePipe() else {
      close(outputPipe.read)
      close(outputPipe.write)
      return .failure(CommandError(path: path, cause: .spawnFailed(errno: errno)))
    }

    let spawned = spawn(
      path: path,
      arguments: command.arguments,
      environment: command.environment,
      workingDirectory: command.workingDirectory?.path,
      inputPath: inputPath,
      outputFD: outputPipe.write,
      errorFD: errorPipe.write
    )
    // The child has its own copies; ours must close for the reads to reach end of file.
    close(outputPipe.write)
    close(errorPipe.write)
    guard case .success(let pid) = spawned else {
      close(outputPipe.read)
      close(errorPipe.read)
      if case .failure(let code) = spawned {
        return .failure(CommandError(path: path, cause: .spawnFailed(errno: code.code)))
      }
      return .failure(CommandError(path: path, cause: .spawnFailed(errno: EINVAL)))
    }

    var run = CommandRun()
    var output = StreamBuffer(limit: command.outputLimit)
    var errorOutput = StreamBuffer(limit: command.outputLimit)
    let deadline = monotonicSeconds() + max(0, command.timeout)
    var status: Int32?
    var exitedAt = Double.infinity
    // Readable once the program exits; -1 where the system has no pidfd.
    let exitFD = command_wait_pidfd_open(pid)
    var descriptors = [
      pollfd(fd: outputPipe.read, events: Int16(POLLIN), revents: 0),
      pollfd(fd: errorPipe.read, events: Int16(POLLIN), revents: 0),
      pollfd(fd: exitFD, events: Int16(POLLIN), revents: 0),
    ]
    let exitIndex = 2
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    while descriptors[0..<exitIndex].contains(where: { $0.fd >= 0 }) || status == nil {
      let now = monotonicSeconds()
      let remaining = deadline - now
      if remaining <= 0 {
        kill(-pid, SIGKILL)
        run.termination = .timedOut
        break
      }
      // Its group was killed when it exited, so the outputs reach their end within moments,
      // unless a process that left the group (a daemon) holds them: that one is not waited for.
      let graceLeft = exitedAt + Self.outputGrace - now
      if graceLeft <= 0 {
        run.outputHeldOpen = true
        break
      }
      // Without a pidfd, poll in short slices while the program runs, to notice its exit.
      let waitsForExit = status == nil && descriptors[exitIndex].fd < 0
      // At most a minute at a time, so that a long or infinite timeout fits poll's milliseconds.
      let slice = min(remaining, waitsForExit ? 0.05 : status == nil ? 60 : graceLeft)
      if descriptors.contains(where: { $0.fd >= 0 }) {
        _ = poll(&descriptors, nfds_t(descriptors.count), Int32((slice * 1000).rounded(.up)))
      } else {
        usleep(useconds_t(min(slice, 0.005) * 1_000_000))
      }
      for index in 0..<exitIndex where descriptors[index].fd >= 0 {
        guard descriptors[index].revents != 0 else { continue }
        let count = chunk.withUnsafeMutableBytes {
          read(descriptors[index].fd, $0.baseAddress, $0.count)
        }
        if count > 0 {
          chunk.withUnsafeBytes { bytes in
            let received = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
            if index == 0 { output.append(received) } else { errorOutput.append(received) }
          }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          close(descriptors[index].fd)
          descriptors[index].fd = -1
        }
        descriptors[index].revents = 0
      }
      if status == nil {
        var waitStatus: Int32 = 0
        if waitpid(pid, &waitStatus, WNOHANG) == pid {
          status = waitStatus
          exitedAt = monotonicSeconds()
          // Children it left running would hold the pipes open; end them with it.
          kill(-pid, SIGKILL)
          if descriptors[exitIndex].fd >= 0 {
            close(descriptors[exitIndex].fd)
            descriptors[exitIndex].fd = -1
          }
        }
      }
    }

    for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
    if status == nil {
      var waitStatus: Int32 = 0
      while waitpid(pid, &waitStatus, 0) == -1 && errno == EINTR {}
      status = waitStatus
    }
    run.standardOutput = output.data
    run.droppedOutputBytes = output.dropped
    run.standardError = errorOutput.data
    run.droppedErrorBytes = errorOutput.dropped
    if run.termination != .timedOut, let status {
      run.termination = termination(fromWaitStatus: status)
    }
    return .success(run)
  }

  /// Seconds the outputs are read after the program exited, at most.
  static let outputGrace = 1.0

  /// `exited(code)` or `signaled(number)` from a `waitpid` status, decoded by hand because the
  /// `WIFEXITED` family are C macros Swift does not import.
  static func termination(fromWaitStatus status: Int32) -> CommandRun.Termination {
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }

  private struct Failure: Error { var code: Int32 }

  private struct StreamBuffer {
    let limit: Int
    var data = Data()
    var dropped = 0

    init(limit: Int) { self.limit = max(0, limit) }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
      let kept = min(bytes.count, limit - data.count)
      if kept > 0 { data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<kept])) }
      dropped += bytes.count - max(0, kept)
    }
  }

  private static func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  private static func makePipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [0, 0]
    // Close-on-exec from the start: a pipe end that leaked into another test's child would keep
    // this one from ever reaching end of file.
    guard command_spawn_pipe(&ends) == 0 else { return nil }
    return (ends[0], ends[1])
  }

  /// Starts the program through `command_spawn`, the package's one spawner (shared with the web
  /// module's browser): the leader of a new process group, default signal handling and nothing
  /// blocked (the test process may ignore SIGPIPE, which the child would otherwise inherit), and
  /// on Linux killed by the kernel if the test process dies first.
  private static func spawn(
    path: String,
    arguments: [String],
    environment: [String: String],
    workingDirectory: String?,
    inputPath: String,
    outputFD: Int32,
    errorFD: Int32
  ) -> Result<pid_t, Failure> {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp =
      environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = inputPath.withCString { input in
      let descriptors = [
        command_spawn_descriptor(fd: 0, source: -1, path: input, flags: O_RDONLY, mode: 0),
        command_spawn_descriptor(fd: 1, source: outputFD, path: nil, flags: 0, mode: 0),
        command_spawn_descriptor(fd: 2, source: errorFD, path: nil, flags: 0, mode: 0),
      ]
      guard let workingDirectory else {
        return command_spawn(&pid, path, argv, envp, descriptors, Int32(descriptors.count), nil)
      }
      return workingDirectory.withCString { folder in
        command_spawn(&pid, path, argv, envp, descriptors, Int32(descriptors.count), folder)
      }
    }
    return result == 0 ? .success(pid) : .failure(Failure(code: result))
  }
}
