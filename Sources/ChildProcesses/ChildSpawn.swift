import CCommandSpawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The package's one way to start a program: `command_spawn` (CCommandSpawn) with the argument
/// and environment arrays built once, so that the command runner, the browser and the review
/// tool all start children alike: the leader of a new process group, every signal at its default
/// action and none blocked, and on Linux killed by the kernel if this process dies first.
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): the C argument, environment and
/// path arrays handed to `command_spawn`, freed on every path, and the descriptors it moves.
///
/// swift-subprocess 1.0.2 was weighed and is not used: on Linux it cannot place a child's pipes
/// on descriptors 3 and 4 (the browser's DevTools pipe), and it needs a newer tools version than
/// the package's 6.0. Revisit when it can.
package enum ChildSpawn {
  /// One descriptor of the child, set up in order: a copy of one of ours (`dup2`; inherited even
  /// when ours is close-on-exec), or a file opened by path.
  package enum Descriptor: Sendable {
    case copy(of: Int32, as: Int32)
    case open(path: String, flags: Int32, as: Int32)
  }

  /// Starts `path` with `arguments` (without the program's name, which goes first) and exactly
  /// `environment`, in `workingDirectory` (nil: ours). Returns the child's id, or the error number
  /// of the step that failed (the exec's when the program could not be started).
  package static func spawn(
    path: String,
    arguments: [String],
    environment: [String: String],
    workingDirectory: String? = nil,
    descriptors: [Descriptor]
  ) -> Result<pid_t, SpawnFailure> {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp =
      environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    let paths = descriptors.map { descriptor -> UnsafeMutablePointer<CChar>? in
      if case .open(let path, _, _) = descriptor { return strdup(path) }
      return nil
    }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
      for pointer in paths { free(pointer) }
    }
    let steps = zip(descriptors, paths).map { descriptor, path in
      switch descriptor {
      case .copy(let source, let fd):
        command_spawn_descriptor(fd: fd, source: source, path: nil, flags: 0, mode: 0)
      case .open(_, let flags, let fd):
        command_spawn_descriptor(fd: fd, source: -1, path: path, flags: flags, mode: 0o600)
      }
    }
    var pid: pid_t = 0
    let result: Int32
    if let workingDirectory {
      result = workingDirectory.withCString { folder in
        command_spawn(&pid, path, argv, envp, steps, Int32(steps.count), folder)
      }
    } else {
      result = command_spawn(&pid, path, argv, envp, steps, Int32(steps.count), nil)
    }
    return result == 0 ? .success(pid) : .failure(SpawnFailure(code: result))
  }

  /// A pipe whose ends are close-on-exec from the start, so that no program another thread starts
  /// meanwhile inherits them (a leaked write end would keep this pipe from ever reaching its end).
  /// With `lowest`, both ends are numbered `lowest` or more: ends that a child gets as low,
  /// fixed numbers (the browser's 3 and 4) must not sit on those numbers themselves.
  package static func makePipe(numberedFrom lowest: Int32? = nil) -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [0, 0]
    guard command_spawn_pipe(&ends) == 0 else { return nil }
    guard let lowest else { return (ends[0], ends[1]) }
    let read = fcntl(ends[0], F_DUPFD_CLOEXEC, lowest)
    let write = fcntl(ends[1], F_DUPFD_CLOEXEC, lowest)
    close(ends[0])
    close(ends[1])
    guard read >= 0, write >= 0 else {
      if read >= 0 { close(read) }
      if write >= 0 { close(write) }
      return nil
    }
    return (read, write)
  }

  /// Accepts a connection on `listener`, close-on-exec from the start (`accept4` with
  /// `SOCK_CLOEXEC`), so that no program another thread starts meanwhile inherits it: a server
  /// in a process that spawns children (the served report) accepts through this. Returns the
  /// descriptor, or -1 with `errno` set.
  package static func accept(_ listener: Int32) -> Int32 {
    command_spawn_accept(listener)
  }

  /// Ends the process group `pid` leads, and with it every child the program started there.
  package static func killGroup(_ pid: pid_t) {
    kill(-pid, SIGKILL)
  }

  /// Waits for `pid` to exit and reaps it; its `waitpid` status.
  package static func reap(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return status
  }

  /// `exited(code)` or `signaled(number)` from a `waitpid` status, decoded by hand because the
  /// `WIFEXITED` family are C macros Swift does not import.
  package static func termination(fromWaitStatus status: Int32) -> ChildRun.Termination {
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }
}

/// Why a program could not be started: an error number (`errno`).
package struct SpawnFailure: Error, Equatable, Sendable {
  package var code: Int32

  package init(code: Int32) { self.code = code }
}
