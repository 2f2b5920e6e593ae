import Foundation
import Testing

@testable import SnapshotReview

/// `snapshot-testing report --serve` as a user runs it: it prints its address, serves, stops on
/// Ctrl-C (SIGINT) with status 0 and leaves no file behind; a port in use exits 6.
@Suite struct ServeCommandTests {
  /// Every file under `folder`, hidden ones included, with its bytes.
  static func files(under folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return files }
    while let relative = walker.nextObject() as? String {
      let url = folder.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
        files[relative] = isDirectory.boolValue ? Data() : (try? Data(contentsOf: url)) ?? Data()
      }
    }
    return files
  }

  @Test func ctrlCStopsTheServerAndLeavesNothingBehind() async throws {
    try await ReviewFixture.withServed { fixture in
      let executable = try #require(ExecutableTests.executable, "run `swift build` first")
      let before = Self.files(under: fixture.root.deletingLastPathComponent())
      let process = Process()
      process.executableURL = executable
      process.arguments = ["report", "--serve", "--artifacts", fixture.artifacts.path]
      process.currentDirectoryURL = fixture.root
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      process.standardInput = FileHandle.nullDevice
      try process.run()
      let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
      DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
      defer { watchdog.cancel() }

      // The first line names the address.
      var printed = ""
      let reader = output.fileHandleForReading
      while !printed.contains("/\n"), process.isRunning {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        printed += String(decoding: chunk, as: UTF8.self)
      }
      let prefix = "at http://127.0.0.1:"
      let range = try #require(printed.range(of: prefix), "printed: \(printed)")
      let port = try #require(Int(printed[range.upperBound...].prefix { $0.isNumber }))
      let page = try await rawHTTP(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
      #expect(page.hasPrefix("HTTP/1.1 200"))
      #expect(page.contains("snapshot-testing-token"))

      // A second server on the same port: a clear error and exit code 6.
      let busy = try ExecutableTests().run(
        ["report", "--serve", "--port", "\(port)", "--artifacts", fixture.artifacts.path],
        in: fixture.root)
      #expect(busy.status == ToolExitCode.unavailable.rawValue)
      #expect(busy.errors.contains("Port \(port) of 127.0.0.1 is already in use"))

      process.interrupt()
      process.waitUntilExit()
      printed += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
      #expect(process.terminationReason == .exit)
      #expect(process.terminationStatus == 0)
      #expect(printed.hasSuffix("Stopped serving.\n"))
      #expect(Self.files(under: fixture.root.deletingLastPathComponent()) == before)
      let refused = try? await rawHTTP(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
      #expect(refused == nil || refused == "", "nothing listens any more")
    }
  }

  @Test func portWithoutServeIsAUsageError() throws {
    try ReviewFixture.with { fixture in
      let result = try ExecutableTests().run(["report", "--port", "8080"], in: fixture.root)
      #expect(result.status == ToolExitCode.usage.rawValue)
      #expect(result.errors.contains("--port is only for --serve."))
    }
  }
}
