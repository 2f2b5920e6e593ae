import Foundation
import TestSupport
import Testing

/// Starts `RecordingChild` (Tests/RecordingChild) with `arguments` after its mode and `folder`,
/// its artifacts beside `folder` and its output discarded: a recording to kill.
func startRecordingChild(_ mode: String, folder: URL, _ arguments: [String]) throws -> Process {
  let process = Process()
  let child: URL = try #require(
    builtProduct("RecordingChild"),
    "RecordingChild was not built beside the test bundle"
  )
  process.executableURL = child
  process.arguments = [mode, folder.path] + arguments
  var environment = ProcessInfo.processInfo.environment
  environment["SNAPSHOT_ARTIFACTS"] =
    folder.deletingLastPathComponent().appendingPathComponent("artifacts").path
  process.environment = environment
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
