import Foundation
import TestSupport

@testable import CommandSnapshotTesting

/// The fixture program, as the tests find it: the way a user finds their own tool.
let fixture = productURL("CommandFixture")
let shell = URL(fileURLWithPath: "/bin/sh")

func fixtureCommand(_ arguments: String..., timeout: TimeInterval = 60) -> Command {
  Command(executable: fixture, arguments: arguments, timeout: timeout)
}

/// Whether a process is gone: no longer in the process table, or a zombie waiting to be reaped
/// (which runs nothing).
func processIsGone(_ pid: Int32) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
    return true
  }
  // `pid (name) state …`: the state follows the last parenthesis.
  guard let close = stat.lastIndex(of: ")") else { return true }
  let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
  return state == "Z" || state == "X"
}
