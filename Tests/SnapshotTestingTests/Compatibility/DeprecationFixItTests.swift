import Foundation
import Testing

/// The deprecated `matching:` spellings name their whole replacement, so the compiler's fix-it
/// rewrites every argument label and not only the first two. Checked by type-checking a file
/// that uses them against the modules this test run was built with.
@Suite struct DeprecationFixItTests {
  static let modules = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("Modules")

  @Test(.enabled(if: FileManager.default.fileExists(atPath: modules.path)))
  func theFixItsRenameEveryLabel() throws {
    let source = """
      import SnapshotTesting
      func uses() {
        assertSnapshot(matching: "x", as: .lines, named: "n")
        assertSnapshots(matching: "x", as: ["a": .lines])
        _ = verifySnapshot(matching: "x", as: .lines, snapshotDirectory: "/tmp")
      }
      """
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("DeprecationFixIt-\(UUID().uuidString).swift")
    try Data(source.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-typecheck", "-I", Self.modules.path, file.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(output)")
    for renamed in [
      "assertSnapshot(of:as:named:record:timeout:file:testName:line:)",
      "assertSnapshots(of:as:record:timeout:file:testName:line:)",
      "verifySnapshot(of:as:named:record:snapshotDirectory:timeout:file:testName:line:)",
    ] {
      #expect(output.contains("renamed to '\(renamed)'"), "\(output)")
    }
  }
}
