import Foundation

/// Starts this test binary again, running only the Swift Testing test `test`, with `extra` added
/// to this process's environment and its output discarded: a test's child process to kill.
func startChildTest(_ test: String, environment extra: [String: String]) throws -> Process {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments = ["--testing-library", "swift-testing", "--filter", test]
  process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  return process
}

/// Waits (up to 20 s) for the child to create `marker`, lets it run `delay` milliseconds more,
/// then kills it with SIGKILL and reaps it.
func kill(_ process: Process, whenStarted marker: URL, afterMilliseconds delay: Int) {
  let deadline = Date().addingTimeInterval(20)
  while !FileManager.default.fileExists(atPath: marker.path) && Date() < deadline {
    usleep(1000)
  }
  usleep(useconds_t(delay * 1000))
  kill(process.processIdentifier, SIGKILL)
  process.waitUntilExit()
}
