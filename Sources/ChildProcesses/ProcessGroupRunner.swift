import CCommandSpawn
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program in a process group of its own and reads both of its outputs as they come.
///
/// The program is started by ``ChildSpawn`` as the leader of a new process group, so that one
/// `kill(-group, SIGKILL)` ends it and every child it started: on a timeout, and also once it has
/// exited, so that a child left behind can neither keep the pipes open nor outlive the caller.
/// Standard input is a temporary file (or `/dev/null`): the program reads it at its own pace and
/// never blocks the reader. Both outputs are read in 64 KiB chunks with `poll`; each keeps at
/// most ``ChildRequest/outputLimit`` bytes and counts the rest. The same `poll` waits for the
/// program's exit through a pidfd (Linux 5.3 and later), so the reader sleeps until something
/// happens; where there is none it looks for the exit every 50 ms.
///
/// ``start(_:completion:)`` runs all this on a thread of its own, never on one of Swift's
/// cooperative pool, which a program that takes seconds would otherwise hold.
///
/// - Complexity: O(*n*) in the bytes written, with memory bounded by twice the output limit.
package enum ProcessGroupRunner {
  /// Seconds the outputs are read after the program exited, at most.
  package static let outputGrace = 1.0

  /// Runs `request` on a new thread named `name` and hands its result to `completion`, there.
  package static func start(
    _ request: ChildRequest,
    name: String,
    completion: @escaping @Sendable (Result<ChildRun, SpawnFailure>) -> Void
  ) {
    let thread = Thread { completion(run(request)) }
    thread.name = name
    thread.start()
  }

  /// Runs `request` to its end on the calling thread: input, pipes, spawn, watch, reap.
  package static func run(_ request: ChildRequest) -> Result<ChildRun, SpawnFailure> {
    let input: StandardInput
    switch StandardInput.make(request.standardInput) {
    case .success(let made): input = made
    case .failure(let failure): return .failure(failure)
    }
    defer { input.remove() }
    guard let pipes = OutputPipes.make() else {
      return .failure(SpawnFailure(code: errno))
    }
    let spawned = ChildSpawn.spawn(
      path: request.path,
      arguments: request.arguments,
      environment: request.environment,
      workingDirectory: request.workingDirectory,
      descriptors: [
        .open(path: input.path, flags: O_RDONLY, as: 0),
        .copy(of: pipes.output.write, as: 1),
        .copy(of: pipes.error.write, as: 2),
      ]
    )
    // The child has its own copies; ours must close for the reads to reach end of file.
    pipes.closeWriteEnds()
    switch spawned {
    case .failure(let failure):
      pipes.closeReadEnds()
      return .failure(failure)
    case .success(let pid):
      var watch = Watch(pid: pid, pipes: pipes, request: request)
      watch.untilDone()
      return .success(watch.finish())
    }
  }

  /// The program's standard input: a temporary file holding the given bytes, or `/dev/null`.
  private struct StandardInput {
    var path = "/dev/null"
    var file: URL?

    static func make(_ data: Data?) -> Result<StandardInput, SpawnFailure> {
      guard let data else { return .success(StandardInput()) }
      let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("command-input-\(UUID().uuidString)")
      do {
        try data.write(to: file)
      } catch {
        return .failure(SpawnFailure(code: EIO))
      }
      return .success(StandardInput(path: file.path, file: file))
    }

    func remove() {
      if let file { try? FileManager.default.removeItem(at: file) }
    }
  }

  /// The two pipes the program writes its outputs into.
  private struct OutputPipes {
    var output: (read: Int32, write: Int32)
    var error: (read: Int32, write: Int32)

    static func make() -> OutputPipes? {
      guard let output = ChildSpawn.makePipe() else { return nil }
      guard let error = ChildSpawn.makePipe() else {
        close(output.read)
        close(output.write)
        return nil
      }
      return OutputPipes(output: output, error: error)
    }

    func closeWriteEnds() {
      close(output.write)
      close(error.write)
    }

    func closeReadEnds() {
      close(output.read)
      close(error.read)
    }
  }

  /// One running program: its outputs read, its exit noticed, its deadline kept.
  private struct Watch {
    let pid: pid_t
    let deadline: Double
    var run = ChildRun()
    var output: StreamBuffer
    var errorOutput: StreamBuffer
    var status: Int32?
    var exitedAt = Double.infinity
    /// Both outputs, then the pidfd that is readable once the program exits (-1 without one).
    var descriptors: [pollfd]
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    static let exitIndex = 2

    init(pid: pid_t, pipes: OutputPipes, request: ChildRequest) {
      self.pid = pid
      deadline = ProcessGroupRunner.monotonicSeconds() + max(0, request.timeout)
      output = StreamBuffer(limit: request.outputLimit)
      errorOutput = StreamBuffer(limit: request.outputLimit)
      descriptors = [
        pollfd(fd: pipes.output.read, events: Int16(POLLIN), revents: 0),
        pollfd(fd: pipes.error.read, events: Int16(POLLIN), revents: 0),
        pollfd(fd: command_wait_pidfd_open(pid), events: Int16(POLLIN), revents: 0),
      ]
    }

    var outputsOpen: Bool { descriptors[0..<Self.exitIndex].contains { $0.fd >= 0 } }

    /// Reads and waits until both outputs end and the program has exited, the deadline passes,
    /// or a daemon holds an output open past the grace period.
    mutating func untilDone() {
      while outputsOpen || status == nil {
        let now = ProcessGroupRunner.monotonicSeconds()
        let remaining = deadline - now
        if remaining <= 0 {
          ChildSpawn.killGroup(pid)
          run.termination = .timedOut
          return
        }
        // Its group was killed when it exited, so the outputs reach their end within moments,
        // unless a process that left the group (a daemon) holds them: that one is not waited for.
        let graceLeft = exitedAt + ProcessGroupRunner.outputGrace - now
        if graceLeft <= 0 {
          run.outputHeldOpen = true
          return
        }
        waitForEvents(remaining: remaining, graceLeft: graceLeft)
        readReadyOutputs()
        noticeExit()
      }
    }

    /// Sleeps in `poll` until an output or the exit is ready, or the slice ends.
    mutating func waitForEvents(remaining: Double, graceLeft: Double) {
      // Without a pidfd, poll in short slices while the program runs, to notice its exit.
      let waitsForExit = status == nil && descriptors[Self.exitIndex].fd < 0
      // At most a minute at a time, so that a long or infinite timeout fits poll's milliseconds.
      let slice = min(remaining, waitsForExit ? 0.05 : status == nil ? 60 : graceLeft)
      if descriptors.contains(where: { $0.fd >= 0 }) {
        _ = poll(&descriptors, nfds_t(descriptors.count), Int32((slice * 1000).rounded(.up)))
      } else {
        usleep(useconds_t(min(slice, 0.005) * 1_000_000))
      }
    }

    /// Reads one chunk from each output `poll` found ready; closes an output at its end.
    mutating func readReadyOutputs() {
      for index in 0..<Self.exitIndex where descriptors[index].fd >= 0 {
        guard descriptors[index].revents != 0 else { continue }
        let fd = descriptors[index].fd
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
          chunk.withUnsafeBytes { bytes in
            let received = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
            if index == 0 { output.append(received) } else { errorOutput.append(received) }
          }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          close(fd)
          descriptors[index].fd = -1
        }
        descriptors[index].revents = 0
      }
    }

    /// Reaps the program if it has exited, and ends what it left running in its group.
    mutating func noticeExit() {
      guard status == nil else { return }
      var waitStatus: Int32 = 0
      guard waitpid(pid, &waitStatus, WNOHANG) == pid else { return }
      status = waitStatus
      exitedAt = ProcessGroupRunner.monotonicSeconds()
      // Children it left running would hold the pipes open; end them with it.
      ChildSpawn.killGroup(pid)
      if descriptors[Self.exitIndex].fd >= 0 {
        close(descriptors[Self.exitIndex].fd)
        descriptors[Self.exitIndex].fd = -1
      }
    }

    /// Closes what is open, reaps the program if it still runs (killed on a timeout), and
    /// returns what it did.
    mutating func finish() -> ChildRun {
      for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
      let status = self.status ?? ChildSpawn.reap(pid)
      run.standardOutput = output.data
      run.droppedOutputBytes = output.dropped
      run.standardError = errorOutput.data
      run.droppedErrorBytes = errorOutput.dropped
      if run.termination != .timedOut {
        run.termination = ChildSpawn.termination(fromWaitStatus: status)
      }
      return run
    }
  }

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
}
