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

  @Test func ctrlCStopsTheServerAndLeavesNothingBehind() throws {
    try ReviewFixture.with { fixture in
      let before = Self.files(under: fixture.root.deletingLastPathComponent())
      let served = try ServedProcess(
        in: fixture.root,
        arguments: ["--artifacts", fixture.artifacts.path]
      )
      let port = served.port
      let page = try rawHTTP(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
      #expect(page.hasPrefix("HTTP/1.1 200"))
      #expect(page.contains("snapshot-testing-token"))

      // A second server on the same port: a clear error and exit code 6.
      let busy = try ExecutableTests().run(
        ["report", "--serve", "--port", "\(port)", "--artifacts", fixture.artifacts.path],
        in: fixture.root
      )
      #expect(busy.status == ToolExitCode.unavailable.rawValue)
      #expect(busy.errors.contains("Port \(port) of 127.0.0.1 is already in use"))

      #expect(served.interrupt() == 0)
      #expect(served.process.terminationReason == .exit)
      #expect(served.output.hasSuffix("Stopped serving.\n"))
      #expect(Self.files(under: fixture.root.deletingLastPathComponent()) == before)
      #expect(try rawHTTP(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") == "")
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
