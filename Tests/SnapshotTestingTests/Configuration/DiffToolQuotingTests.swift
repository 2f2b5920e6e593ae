import Foundation
import Testing

@testable import SnapshotTesting

/// A diff tool's command is printed to be pasted into a shell, and folder names are anyone's
/// choice (a branch, a pull request's files): the paths must reach the tool as they are, and
/// nothing in them may run.
@Suite struct DiffToolQuotingTests {
  static let hostilePaths = [
    "/work/it's $(touch PWNED)/__Snapshots__/T/t.1.txt",
    "/work/`touch PWNED`; \"x\"/new.txt",
    "/work/plain/t.1.txt",
  ]

  static let tools: [(String, SnapshotTestingConfiguration.DiffTool)] = [
    ("ksdiff", .ksdiff), ("opendiff", "opendiff"),
  ]

  @Test(arguments: 0..<tools.count)
  func pastedCommandsPassThePathsAndRunNothing(_ index: Int) throws {
    let (name, tool) = Self.tools[index]
    try withTemporaryDirectory { folder in
      for (reference, failed) in zip(Self.hostilePaths, Self.hostilePaths.reversed()) {
        let command = tool(currentFilePath: reference, failedFilePath: failed)
        #expect(command.hasPrefix(name + " "))
        // The tool's name replaced by one that prints its arguments, one a line.
        let printing = "printf '%s\\n'" + command.dropFirst(name.count)
        let output = try runShell(printing, in: folder)
        #expect(output == reference + "\n" + failed + "\n", "\(command)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("PWNED").path))
      }
    }
  }

  private func runShell(_ script: String, in folder: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = folder
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
